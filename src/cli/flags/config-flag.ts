import { Option } from 'commander';

/**
 * `--config <path>`, the same on every command that reads the config file (init, which writes it,
 * words its own). DEEPSEARCH_CONFIG names the file when the flag is not given (load-cli-config.ts);
 * `help settings` lists it: the hint does not fit one help row.
 */
export function configFlag(): Option {
  return new Option('--config <path>', 'config file (default ./deepsearch.config.json)');
}
