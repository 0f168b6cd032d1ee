/**
 * `skillrt/catalog`: where skills come from, and SKILL.md text to data — discovery over roots, the
 * catalog, the strict and lenient parsers, name rules, folder validation and the `<available_skills>`
 * prompt block. The search index's on-disk format is not part of it.
 */
export { createCatalog } from "./catalog/create-catalog.js";
export { type DiscoveredAgents, discoverAgents } from "./catalog/discover-agents.js";
export { discoverSkills } from "./catalog/discover-skills.js";
export { defineSkill } from "./catalog/memory-source.js";
export { type ParseAgentResult, parseAgentFile } from "./catalog/parse-agent-file.js";
export type {
  Catalog,
  CatalogChangeEvent,
  CatalogOptions,
  DiscoveredSkill,
  DiscoveryResult,
  LineRange,
  LoadedSkill,
  MemorySkill,
  ReadFileResult,
  SearchHit,
  SkillFile,
  SkillFileKind,
  SkillRecord,
  SkillRoot,
  SkillScope,
} from "./catalog/types.js";
export { type SkillDirValidation, validateSkillDir } from "./catalog/validate-skill-dir.js";
export { describeDiagnosticCodes } from "./spec/describe-diagnostic-codes.js";
export { parseSkillMd } from "./spec/parse-skill-md.js";
export { type PromptEntry, toPrompt } from "./spec/to-prompt.js";
export type {
  Diagnostic,
  DiagnosticCode,
  ParsedSkill,
  ParseMode,
  ParseSkillOptions,
  ParseSkillResult,
  Severity,
} from "./spec/types.js";
export { isValidSkillName, validateSkillName } from "./spec/validate-skill-name.js";
