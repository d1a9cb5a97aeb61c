/** What `validateInput` returns: the input is acceptable, or why not (written for the model). */
export type InputValidation = { readonly valid: true } | { readonly valid: false; readonly message: string };

/**
 * What `checkPermissions` returns. `ask` hands the decision to a human; a non-interactive session
 * turns it into `deny`. Messages are written for the model (deny) or the approver (ask).
 */
export type PermissionDecision =
  | { readonly behavior: 'allow' }
  | { readonly behavior: 'deny'; readonly message: string }
  | { readonly behavior: 'ask'; readonly message?: string };
