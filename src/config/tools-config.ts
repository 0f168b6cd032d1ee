/**
 * The `tools` section of `skillrt.config.json`: how server tools are gated and which calls are approved.
 *
 * ```json
 * { "tools": { "gating": "skill", "approval": "unlisted", "allow": ["mcp__tracker__create_issue"] } }
 * ```
 */
import { z } from "zod";

/** The `tools` section (every field optional). */
export const ToolsConfig = z
  .object({
    /**
     * `open` (every server tool offered), `skill` (only while an active skill grants it) or `tool-list`
     * (AWorld's filter). Default: the profile's.
     */
    gating: z.enum(["open", "skill", "tool-list"]).optional(),
    /** `never`, `unlisted` (default: ask for calls not pre-approved) or `always`. */
    approval: z.enum(["never", "unlisted", "always"]).optional(),
    /** Pre-approved tools in `allowed-tools` syntax (`mcp__tracker__create_issue`, `mcp__tracker__*`). */
    allow: z.array(z.string().min(1)).optional(),
  })
  .strict();
/** The `tools` section. */
export type ToolsConfig = z.infer<typeof ToolsConfig>;
