/**
 * A refusal the model should read verbatim (bad path, missing file, ambiguous edit…).
 * The registry turns it into an ok:false observation; anything else thrown is reported as an
 * unexpected tool error. `kind` is for code that branches; the message is for the model.
 */
export type ToolRefusalKind =
  | 'outside_workspace'
  | 'git_internal'
  | 'not_found'
  | 'is_directory'
  | 'not_a_file'
  | 'binary'
  | 'too_large'
  | 'exists';

export class ToolRefusal extends Error {
  override readonly name = 'ToolRefusal';
  constructor(
    readonly kind: ToolRefusalKind,
    message: string,
  ) {
    super(message);
  }
}
