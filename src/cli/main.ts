#!/usr/bin/env node
import { closeChromium } from '../platform/browser/launch-chromium.js';
import { tracingRequested } from '../telemetry/tracing-requested.js';
import { runCli } from './run-cli.js';

const controller = new AbortController();
let interrupted = false;
let finished: number | undefined;
const onSignal = (signal: NodeJS.Signals) => {
  // The command is over and something still holds the process (a terminal left open): go now.
  if (finished !== undefined) process.exit(finished);
  // A second Ctrl-C exits at once; the first cancels the run cleanly.
  if (interrupted) process.exit(130);
  interrupted = true;
  process.stderr.write(`\ndeepsearch: ${signal === 'SIGINT' ? 'interrupted' : 'terminated'}, stopping...\n`);
  controller.abort(new Error(`received ${signal}`));
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);
// A reader that goes away (`deepsearch runs list | head -1`) closes the pipe: nobody is left to
// read the rest, so the command ends quietly, as other command-line tools do, instead of dying on
// an unhandled EPIPE with a stack trace. Any other failure to write stdout (a full disk) is one
// line and exit 1. A closed stderr only loses the progress lines.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  process.stderr.write(`deepsearch: error: cannot write the output: ${error.message}\n`);
  process.exit(1);
});
process.stderr.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

// Traced only when the OpenTelemetry variables ask for it: the SDK is not even loaded otherwise.
const tracing = tracingRequested(process.env) ? await import('../telemetry/start-tracing.js') : undefined;
if (tracing) {
  const { packageVersion } = await import('../core/package-version.js');
  const command = process.argv[2];
  const role = command === 'serve' ? 'server' : command === 'worker' ? 'worker' : 'cli';
  await tracing.startTracing({ env: process.env, role, version: packageVersion() }, (message) =>
    process.stderr.write(`deepsearch: warning: ${message}\n`),
  );
}

const code = await runCli({
  argv: process.argv,
  env: process.env,
  cwd: process.cwd(),
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  signal: controller.signal,
});
// A command that read with Chromium (the browser reader) leaves it running for further reads; the
// process is done, so is the browser (its pipes would keep the process up until it idles out).
await closeChromium();
// The spans still buffered are sent before the process ends.
await tracing?.stopTracing();
finished = code;
// A cancelled run exits now: idle keep-alive connections to the LLM server (fetch keeps them
// about two seconds) would otherwise hold the process after the user asked it to stop.
if (interrupted) process.exit(code);
process.exitCode = code;
