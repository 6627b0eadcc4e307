import type { UsersRepository } from '../users.repository';

export interface ListedUser {
  id: string;
  username: string;
  displayName: string;
  role: string;
  disabled: boolean;
}

/** Who may use the consoles, by username: what a supervisor sees. */
export class ListUsers {
  constructor(private readonly users: UsersRepository) {}

  async execute(): Promise<ListedUser[]> {
    return (await this.users.all()).map((u) => ({
      id: u.id,
      username: u.username,
      displayName: u.displayName,
      role: u.role,
      disabled: u.disabledAt !== null,
    }));
  }
}
