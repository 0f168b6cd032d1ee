/** skillrt's version, reported by `skillrt --version` and to MCP clients. Keep in step with package.json (a test checks). */
export const SKILLRT_VERSION = "0.1.0";
