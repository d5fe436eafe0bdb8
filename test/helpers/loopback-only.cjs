// Preloaded into the built CLI (NODE_OPTIONS=--require) by tests that must prove a run makes no
// network request beyond 127.0.0.1: any other socket connection or DNS lookup ends the process
// with exit code 97 and a line the test looks for.
const dns = require('node:dns');
const net = require('node:net');

const loopback = new Set(['127.0.0.1', '::1', 'localhost']);
function refuse(what) {
  process.stderr.write(`NON-LOOPBACK NETWORK ATTEMPT: ${what}\n`);
  process.exit(97);
}
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
  const options =
    typeof args[0] === 'object' && args[0] !== null ? args[0] : { port: args[0], host: args[1] };
  if (!options.path && !loopback.has(options.host ?? 'localhost')) refuse(`${options.host}:${options.port}`);
  return connect.apply(this, args);
};
const lookup = dns.lookup;
dns.lookup = function guardedLookup(hostname, ...rest) {
  if (!loopback.has(hostname)) refuse(`dns ${hostname}`);
  return lookup.call(this, hostname, ...rest);
};
const promisesLookup = dns.promises.lookup;
dns.promises.lookup = (hostname, ...rest) => {
  if (!loopback.has(hostname)) refuse(`dns ${hostname}`);
  return promisesLookup.call(dns.promises, hostname, ...rest);
};
