import { SkillrtError } from "../errors/skillrt-error.js";

/** The error every store method throws after `close()`. */
export function storeClosedError(where: string): SkillrtError {
  return new SkillrtError({
    code: "store-error",
    message: `Session store ${where} is closed; create a new store to keep reading or writing sessions.`,
  });
}
