import type { DiagnosticCode } from "../../spec/types.js";

/**
 * Why a remote or archive root was refused. Internal to `catalog/remote/`: `materializeRoot` turns it
 * into a diagnostic (the other roots are still read), so it never reaches a caller.
 */
export class RemoteRootError extends Error {
  readonly code: DiagnosticCode;

  constructor({ code, message }: { code: DiagnosticCode; message: string }) {
    super(message);
    this.name = "RemoteRootError";
    this.code = code;
  }
}
