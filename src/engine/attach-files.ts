/**
 * Files a user attaches to a turn (`send(input, { files })`): read (a path relative to the agent's `cwd`
 * only when one was given), staged into the conversation's workspace, and described in a note the user's
 * message gets.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { SkillrtError } from "../errors/skillrt-error.js";
import { stageUserFiles, type UserFile } from "../exec/stage-user-files.js";
import type { Workspace } from "../exec/workspace.js";
import type { SendOptions } from "./skill-agent.js";

/**
 * Stages a turn's attached files into `work/inputs/` and returns the note the user's message gets:
 * where they are, and any `user file input:` warning.
 */
export async function attachFiles(
  workspace: Workspace | undefined,
  files: NonNullable<SendOptions["files"]>,
  cwd: string | undefined,
): Promise<string> {
  if (workspace === undefined) {
    throw new SkillrtError({
      code: "invalid-argument",
      message: "send(input, { files }) needs an executor: attached files are staged into its workspace.",
    });
  }
  const read: UserFile[] = [];
  for (const file of files) {
    if (typeof file !== "string") {
      const content =
        typeof file.content === "string" ? new TextEncoder().encode(file.content) : file.content;
      read.push({ name: file.name, content });
      continue;
    }
    if (cwd === undefined && !path.isAbsolute(file)) {
      throw new SkillrtError({
        code: "invalid-argument",
        message: `Cannot attach '${file}': a relative path needs the agent's \`cwd\` option; pass an absolute path or set \`cwd\`.`,
      });
    }
    const full = cwd === undefined ? file : path.resolve(cwd, file);
    try {
      read.push({ name: path.basename(full), content: await readFile(full) });
    } catch (error) {
      throw new SkillrtError({
        code: "invalid-argument",
        message: `Cannot attach '${file}': ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`,
      });
    }
  }
  const { staged, warnings } = await stageUserFiles(workspace, read);
  const lines =
    staged.length === 0 ? [] : [`Attached files (staged in $WORK_DIR/inputs): ${staged.join(", ")}`];
  return lines.length + warnings.length === 0 ? "" : `\n\n${[...lines, ...warnings].join("\n")}`;
}
