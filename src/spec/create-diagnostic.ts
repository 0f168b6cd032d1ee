/** Building {@link Diagnostic} values without `undefined` in optional fields (exactOptionalPropertyTypes). */
import type { Diagnostic, DiagnosticCode, Severity } from "./types.js";

/** Where in SKILL.md a finding points; both 1-based. */
export interface SourcePosition {
  line?: number | undefined;
  column?: number | undefined;
}

/** A diagnostic; `line` and `column` are set only when known. */
export function createDiagnostic(
  code: DiagnosticCode,
  severity: Severity,
  message: string,
  path: string,
  position: SourcePosition = {},
): Diagnostic {
  const d: Diagnostic = { code, severity, message, path };
  if (position.line !== undefined) d.line = position.line;
  if (position.column !== undefined) d.column = position.column;
  return d;
}
