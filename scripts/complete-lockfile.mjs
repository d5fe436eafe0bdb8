// The npm registry reachable here serves only the Linux builds of platform-specific optional
// packages (e.g. @biomejs/cli-darwin-x64 is missing), so `npm install` leaves them out of the lock
// file and `npm ci` then refuses it as out of sync. This adds a platform-tagged entry for each
// missing one; npm ci skips them on this platform without fetching. Run after `npm install`.
import { readFileSync, writeFileSync } from 'node:fs';

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const platforms =
  /-(android|darwin|linux|win32|freebsd|openbsd|sunos|aix)-(arm64|x64|ia32|arm|ppc64|s390x|riscv64)(?:-(musl|gnu|msvc))?$/;
let added = 0;
for (const entry of Object.values(lock.packages)) {
  for (const name of Object.keys(entry.optionalDependencies ?? {})) {
    const target = `node_modules/${name}`;
    const match = platforms.exec(name);
    if (lock.packages[target] || !match) continue;
    const [, os, cpu, libc] = match;
    lock.packages[target] = {
      version: entry.optionalDependencies[name].replace(/^[\^~=]/, ''),
      cpu: [cpu],
      ...(entry.dev ? { dev: true } : {}),
      ...(libc === 'musl' || libc === 'gnu' ? { libc: [libc === 'gnu' ? 'glibc' : 'musl'] } : {}),
      optional: true,
      os: [os],
    };
    added++;
  }
}
const sorted = {};
for (const key of Object.keys(lock.packages).sort((a, b) =>
  a === '' ? -1 : b === '' ? 1 : a.localeCompare(b),
)) {
  sorted[key] = lock.packages[key];
}
lock.packages = sorted;
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} platform entries`);
