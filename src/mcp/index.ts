/** The `skillrt/mcp` entry point: a skill catalog as an MCP server (tools, resources, prompts, SEP-2640), on stdio or HTTP. */
export {
  createSkillMcpServer,
  SKILLRT_MCP_VERSION,
  type SkillMcpExecOptions,
  type SkillMcpServerOptions,
} from "./create-skill-mcp-server.js";
export {
  isLoopbackHost,
  MCP_HTTP_PATH,
  type McpHttpAuth,
  type McpHttpOptions,
  type McpHttpServer,
  serveMcpHttp,
} from "./serve-mcp-http.js";
export { SKILL_URI_TEMPLATE, skillFileUri } from "./serve-skill-resources.js";
export { SKILLS_EXTENSION, type SkillsExtensionPaging } from "./serve-skills-extension.js";
export type { SkillEntry } from "./skill-serving.js";
