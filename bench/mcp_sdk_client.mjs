// The yardstick MCP client: the official TypeScript SDK. Connects to a stdio command
// (`stdio CMD ARGS...`) or a streamable HTTP URL (`http URL`), then makes N sequential echo
// calls (N from BENCH_CALLS, default 1000) after 50 warm-up calls and prints one JSON line:
// {"calls": N, "calls_per_s", "p50_us", "p99_us"}.
// The SDK's stdio client passes only a few variables to its child: default to the test tree.
const sdk = (process.env.MCP_SDK_DIR ||
             new URL('../tests/mcp/npm/node_modules/@modelcontextprotocol/sdk', import.meta.url).pathname) +
            '/dist/esm';
const { Client } = await import(sdk + '/client/index.js');
const { StdioClientTransport } = await import(sdk + '/client/stdio.js');
const { StreamableHTTPClientTransport } = await import(sdk + '/client/streamableHttp.js');

const [mode, target, ...args] = process.argv.slice(2);
const transport = mode === 'stdio'
  ? new StdioClientTransport({ command: target, args, stderr: 'ignore' })
  : new StreamableHTTPClientTransport(new URL(target));
const client = new Client({ name: 'bench', version: '1.0.0' });
await client.connect(transport);
const n = Number(process.env.BENCH_CALLS || 1000);
for (let i = 0; i < 50; i++) await client.callTool({ name: 'echo', arguments: { text: 'warm' } });
const lat = [];
const t0 = process.hrtime.bigint();
for (let i = 0; i < n; i++) {
  const s = process.hrtime.bigint();
  const r = await client.callTool({ name: 'echo', arguments: { text: 'hello ' + i } });
  if (r.content[0].text !== 'hello ' + i) throw new Error('bad echo: ' + JSON.stringify(r));
  lat.push(Number(process.hrtime.bigint() - s) / 1000);
}
const total = Number(process.hrtime.bigint() - t0) / 1e9;
lat.sort((a, b) => a - b);
const pct = (p) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))];
console.log(JSON.stringify({ calls: n, calls_per_s: n / total, p50_us: pct(0.5), p99_us: pct(0.99) }));
await client.close();
process.exit(0);
