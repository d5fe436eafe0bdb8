import type { AgentEvent, PartLabel } from '../../events/agent-events.js';
import type { Terminal } from '../io/terminal-style.js';

/**
 * Research runs its sections' deep searches at once, each with its own run id and step numbers
 * from 1: their lines interleave. A part's run-start says what it is for; from then on every
 * event with its run id is labelled with it ("s2" for a section's first hop, "s2·h2" for its
 * second, "check s2" for the verification of one of its claims).
 */
export function createPartLabels(): (event: AgentEvent) => string | undefined {
  const labels = new Map<string, string>();
  return (event) => {
    if (event.type === 'run-start' && event.part) labels.set(event.runId, partLabel(event.part));
    return labels.get(event.runId);
  };
}

export function partLabel(part: PartLabel): string {
  const section = part.section ?? '?';
  if (part.purpose === 'verification') return `check ${section}`;
  // Each hop is a deep search whose steps count from 1: a later hop says which, so a section's
  // step labels never repeat ([s1·2] in hop 1, [s1·h2·2] in hop 2).
  return part.hop !== undefined && part.hop > 1 ? `${section}·h${part.hop}` : section;
}

/**
 * The terminal a part's lines go to: its indented lines start with the part's label instead of
 * the first spaces of their indent ("  s2 ↳ ..."), so each one says whose it is.
 */
export function labelledTerminal(terminal: Terminal, label: string): Terminal {
  const tag = `${terminal.style('dim', label.padStart(4))} `;
  return {
    ...terminal,
    write: (line) => terminal.write(line.startsWith('    ') ? `${tag}${line.slice(4)}` : line),
    ...(terminal.partial
      ? {
          partial: (text: string) =>
            terminal.partial!(text.startsWith('    ') ? `${tag}${text.slice(4)}` : text),
        }
      : {}),
  };
}
