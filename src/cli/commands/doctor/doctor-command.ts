import type { Command } from 'commander';
import { configFlag } from '../../flags/config-flag.js';
import { addExamples, addSettingFlags, collectSettingFlags } from '../../flags/setting-flags.js';
import type { CliIo } from '../../io/cli-io.js';

export interface DoctorCommandFlags {
  config?: string;
  page?: string;
}

export const defaultDoctorPage = 'https://example.com/';

/** Registers `deepsearch doctor`: checks the LLM, search, the reader and the cache, with a fix per failure. */
export function addDoctorCommand(program: Command, io: CliIo): void {
  const doctor = addSettingFlags(
    program
      .command('doctor')
      .description('check the LLM, search, the reader and the cache; print a fix for each failure')
      .option('--page <url>', `page the reader check reads (default ${defaultDoctorPage})`)
      .addOption(configFlag()),
    { scope: 'doctor' },
  );
  addExamples(doctor, [
    'deepsearch doctor',
    'deepsearch doctor --config ./deepsearch.config.json',
    'deepsearch doctor --llm-base-url http://localhost:11434/v1 --llm-model qwen2.5:7b',
  ]);
  doctor.action(async (flags: DoctorCommandFlags) => {
    const { runDoctorCommand } = await import('./run-doctor-command.js');
    await runDoctorCommand(io, { flags, settingFlags: collectSettingFlags(doctor) });
  });
}
