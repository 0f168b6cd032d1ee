/** The `skillrt/mcp` entry point: a skill catalog as an MCP server (tools, resources, prompts). */
export {
  createSkillMcpServer,
  SKILLRT_MCP_VERSION,
  type SkillMcpExecOptions,
  type SkillMcpServerOptions,
} from "./create-skill-mcp-server.js";
export { SKILL_URI_TEMPLATE, skillFileUri } from "./serve-skill-resources.js";
