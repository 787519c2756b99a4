/** TokenReview's answer from the server's token authenticators, as upstream's TokenReview REST reads them. */
import { AuthenticationFailure } from '../auth/authn/authenticator.js';
import type { TokenAuthenticator } from '../auth/authn/token.js';
import type { UserInfo } from '../machinery/user.js';
import { withAuthenticatedGroup } from '../auth/authn/authenticated-group.js';

/** The user a token authenticates, or the refusal's text; an unknown token is neither. */
export async function reviewToken(tokens: TokenAuthenticator | undefined, token: string): Promise<{ user?: UserInfo; error?: string }> {
  if (!tokens) return {};
  try {
    const user = await tokens.authenticateToken(token);
    // Upstream runs the request authenticator on a fake request: the authenticated group comes too.
    return user ? { user: withAuthenticatedGroup(user) } : {};
  } catch (e) {
    if (e instanceof AuthenticationFailure) return { error: e.message };
    throw e;
  }
}
