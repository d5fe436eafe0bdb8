import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultCacheDir } from './default-cache-dir.js';

describe('defaultCacheDir', () => {
  it('follows XDG_DATA_HOME on Linux, else ~/.local/share', () => {
    expect(defaultCacheDir({ platform: 'linux', home: '/home/ada', env: { XDG_DATA_HOME: '/data' } })).toBe(
      join('/data', 'deepsearch'),
    );
    expect(defaultCacheDir({ platform: 'linux', home: '/home/ada', env: {} })).toBe(
      join('/home/ada', '.local', 'share', 'deepsearch'),
    );
  });

  it('uses Application Support on macOS and LOCALAPPDATA on Windows', () => {
    expect(defaultCacheDir({ platform: 'darwin', home: '/Users/ada' })).toBe(
      join('/Users/ada', 'Library', 'Application Support', 'deepsearch'),
    );
    expect(
      defaultCacheDir({ platform: 'win32', home: 'C:/Users/ada', env: { LOCALAPPDATA: 'D:/local' } }),
    ).toBe(join('D:/local', 'deepsearch'));
  });
});
