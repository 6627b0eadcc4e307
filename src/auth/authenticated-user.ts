import type { UserEntity, UserRole } from '@studio/persistence';

/** Who is signed in behind a request, as the routes and consoles see them. */
export interface AuthenticatedUser {
  id: string;
  username: string;
  displayName: string;
  role: UserRole;
}

export function toAuthenticated(user: UserEntity): AuthenticatedUser {
  return { id: user.id, username: user.username, displayName: user.displayName, role: user.role };
}
