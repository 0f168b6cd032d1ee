/**
 * One input of a skill run: what `stageInputs` copies or links into the workspace before the run.
 * Its own module so that running a command (`skillrt run`) does not build zod schemas it never parses.
 */
import { z } from "zod";

/** One input of a skill run. */
export const InputSpec = z.object({
  from: z
    .string()
    .min(1)
    .describe("artifact://name[@version], host:///abs/path, workspace://rel or skill://name/rel"),
  to: z.string().optional().describe("Workspace-relative destination. Default work/inputs/<basename>."),
  mode: z.enum(["copy", "link"]).optional().describe("Default copy."),
});
export type InputSpec = z.infer<typeof InputSpec>;
