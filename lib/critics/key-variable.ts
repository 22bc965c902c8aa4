// Which environment variables may hold a critic's API key. The admin who configures a critic types
// a variable name, and the workers send that variable's value as a bearer token to the URL the same
// admin typed: any name would hand the operator's own secrets (the session secret, the database
// URL, sign-in provider secrets) to an address of the admin's choosing. Only the variables the
// operator set aside for critics, by their prefix, may be named.

/** The prefix every critic key variable carries; the operator sets, say, the prefix plus OPENAI. */
export const CRITIC_KEY_PREFIX = "VERITY_CRITIC_KEY_";

const CRITIC_KEY_NAME = new RegExp(`^${CRITIC_KEY_PREFIX}[A-Z0-9_]+$`);

/** Whether `name` is a variable the operator set aside for critic keys. */
export function isCriticKeyVariable(name: string): boolean {
  return CRITIC_KEY_NAME.test(name);
}

/** The message for a variable outside the prefix, on the form and in a run's stop reason. */
export const CRITIC_KEY_VARIABLE_MESSAGE = `a variable whose name starts with ${CRITIC_KEY_PREFIX} (the operator sets it for critics, e.g. ${CRITIC_KEY_PREFIX}OPENAI)`;
