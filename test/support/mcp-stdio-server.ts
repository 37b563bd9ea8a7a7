/**
 * Entry point of the test MCP server over stdio: `node --import tsx test/support/mcp-stdio-server.ts`.
 * `mcpStdioCommand()` gives the command and arguments a test puts into a tool config.
 */
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createTestMcpServer } from './mcp-test-server.js';

/**
 * How to start this server as a child process: one process (node itself) with tsx's loader given
 * by absolute URL, so it starts from any working directory.
 */
export function mcpStdioCommand(): { command: string; args: string[] } {
  const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { command: process.execPath, args: ['--import', tsxLoader, fileURLToPath(import.meta.url)] };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = createTestMcpServer();
  await server.connect(new StdioServerTransport());
}
