/** Marks an evaluation at narrowing time, when no arguments exist yet: any bound resource counts. */
export const anyArguments: unique symbol = Symbol('toolrail.anyArguments');
