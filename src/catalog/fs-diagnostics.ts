import fs from "node:fs";
import type { Diagnostic } from "../spec/types.js";

/** The diagnostic for a symlink that cannot be followed (dangling → `symlink-broken`, cycle → `symlink-loop`). */
export function linkDiagnostic(error: unknown, abs: string): Diagnostic {
  const code = errorCode(error);
  if (code === "ENOENT") {
    return {
      code: "symlink-broken",
      severity: "warning",
      message: `Symlink ${abs} points to a path that does not exist; skipped. Fix or remove the link.`,
      path: abs,
    };
  }
  if (code === "ELOOP") {
    return {
      code: "symlink-loop",
      severity: "warning",
      message: `Symlink ${abs} is part of a symlink cycle; skipped. Remove one link of the cycle.`,
      path: abs,
    };
  }
  return fsDiagnostic(error, abs);
}

/** A `file-unreadable` warning for an fs error on `abs`. */
export function fsDiagnostic(error: unknown, abs: string): Diagnostic {
  return {
    code: "file-unreadable",
    severity: "warning",
    message: `Could not read ${abs} (${errorCode(error) ?? String(error)}); skipped. Check its permissions.`,
    path: abs,
  };
}

/** True when `abs` is itself a symlink (dangling or not). */
export function isSymlink(abs: string): boolean {
  try {
    return fs.lstatSync(abs).isSymbolicLink();
  } catch {
    return false;
  }
}

/** The `code` of a Node fs error (`ENOENT`, `ELOOP`, …), if any. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error === "object" && error !== null && "code" in error && typeof error.code === "string") {
    return error.code;
  }
  return undefined;
}
