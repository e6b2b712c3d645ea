// The yardstick MCP server: the official TypeScript SDK (low-level Server) with one `echo`
// tool, over stdio (`node mcp_sdk_server.mjs stdio`) or streamable HTTP (`... http PORT_FILE`,
// stateful sessions, JSON or SSE as the SDK chooses). MCP_SDK_DIR points at the SDK package.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';

// The SDK's stdio client passes only a few variables to its child: default to the test tree.
const sdk = (process.env.MCP_SDK_DIR ||
             new URL('../tests/mcp/npm/node_modules/@modelcontextprotocol/sdk', import.meta.url).pathname) +
            '/dist/esm';
const { Server } = await import(sdk + '/server/index.js');
const { StdioServerTransport } = await import(sdk + '/server/stdio.js');
const { StreamableHTTPServerTransport } = await import(sdk + '/server/streamableHttp.js');
const { ListToolsRequestSchema, CallToolRequestSchema } = await import(sdk + '/types.js');

function makeServer() {
  const server = new Server({ name: 'sdk-echo', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: 'echo', description: 'Echoes `text`',
              inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => ({
    content: [{ type: 'text', text: String(req.params.arguments?.text ?? '') }],
  }));
  return server;
}

const mode = process.argv[2];
if (mode === 'stdio') {
  await makeServer().connect(new StdioServerTransport());
} else {
  const transports = new Map();
  const httpServer = http.createServer(async (req, res) => {
    const sid = req.headers['mcp-session-id'];
    let transport = sid && transports.get(sid);
    if (!transport) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => transports.set(id, transport),
      });
      await makeServer().connect(transport);
    }
    await transport.handleRequest(req, res);
  });
  httpServer.listen(0, '127.0.0.1', () => writeFileSync(process.argv[3], String(httpServer.address().port)));
}
