// The official TypeScript SDK client against a stdio MCP server: `node sdk_stdio_client.mjs
// TOOL ARGS_JSON CMD ARGS...` lists the tools, calls TOOL once and prints
// {"tools": [names], "result": CallToolResult} on one line. MCP_SDK_DIR points at the SDK.
const sdk = process.env.MCP_SDK_DIR + '/dist/esm';
const { Client } = await import(sdk + '/client/index.js');
const { StdioClientTransport } = await import(sdk + '/client/stdio.js');
const [tool, args, command, ...rest] = process.argv.slice(2);
const client = new Client({ name: 'clawtools-e2e', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command, args: rest, stderr: 'ignore' }));
const { tools } = await client.listTools();
const result = await client.callTool({ name: tool, arguments: JSON.parse(args) });
console.log(JSON.stringify({ tools: tools.map((t) => t.name), result }));
await client.close();
process.exit(0);
