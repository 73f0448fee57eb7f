/**
 * The Recall MCP server (SDK v1, low-level `Server`): tools/list advertises RECALL_TOOLS with the
 * API's own schemas, tools/call runs the tool's route. A route's error comes back as an MCP tool
 * error (`isError: true`) whose text is the API's error envelope, code included, never as a
 * protocol or transport failure. One server per request (see src/http/mcp/route.ts).
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import type { ApiResult } from "../dispatch";
import { errorBody } from "../errors";
import { issueDetails, validationFailed } from "../validation";
import { inputJsonSchema, RECALL_TOOLS, type RecallTool } from "./tools";

export type CallRoute = (method: string, path: string, body?: unknown) => Promise<ApiResult>;

const SERVER_INFO = { name: "recall", version: "0.1.0" };
const INSTRUCTIONS =
  "Recall remembers what users asked and told before, per scope (a user, a project). Call get_context before answering a question, remember to keep something, faq_search for product answers.";

function toolError(envelope: unknown): CallToolResult {
  return { isError: true, content: [{ type: "text", text: JSON.stringify(envelope) }] };
}

async function callTool(tool: RecallTool, args: Record<string, unknown>, callRoute: CallRoute, requestId: string): Promise<CallToolResult> {
  let params: Record<string, string> = {};
  if (tool.params) {
    const parsed = tool.params.safeParse(Object.fromEntries(Object.keys(tool.params.shape).map((key) => [key, args[key]])));
    if (!parsed.success) {
      const { message, details } = validationFailed(issueDetails(parsed.error.issues), "arguments");
      return toolError(errorBody("VALIDATION_FAILED", message, requestId, details));
    }
    params = parsed.data as Record<string, string>;
  }
  const body = tool.body ? Object.fromEntries(Object.entries(args).filter(([key]) => !(key in params))) : undefined;
  const result = await callRoute(tool.method, tool.path(params), body);
  if (!result.ok) return toolError(result.body ?? errorBody(result.code, result.message, requestId));
  return { content: [{ type: "text", text: tool.present ? tool.present(result.body) : JSON.stringify(result.body) }] };
}

export function createMcpServer(callRoute: CallRoute, requestId: string): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: RECALL_TOOLS.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: inputJsonSchema(tool) as { type: "object" },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = RECALL_TOOLS.find((t) => t.name === request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return callTool(tool, request.params.arguments ?? {}, callRoute, requestId);
  });
  return server;
}
