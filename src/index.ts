/** skillrt public API. Explicit named exports only; internals are not exported. */
export type { Diagnostic, DiagnosticCode, ParsedSkill, ParseMode, Severity } from "./spec/types.js";
export type {
  Catalog,
  CatalogOptions,
  LoadedSkill,
  MemorySkill,
  ReadFileResult,
  SkillFile,
  SkillRecord,
  SkillScope,
} from "./catalog/types.js";
