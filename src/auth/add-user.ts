import 'reflect-metadata';
import { RandomUuidGenerator, SystemClock } from '../clock/clock';
import { oneLine } from '../common/one-line';
import { loadEnvFile } from '../config/env-file';
import { loadStudioConfig } from '../config/studio-config';
import { DatabaseConnection } from '../database/database-connection';
import { CreateUser } from './create-user/create-user.use-case';
import { UsersRepository } from './users.repository';
import { PasswordHasher } from './password-hasher';
import { describePasswordProblem, PasswordPolicy } from './password-policy';

/**
 * Adds a console/API user on the configured database:
 *   STUDIO_USER_PASSWORD=... npm run user:add -- <username> <dealer|supervisor|auditor> [display name]
 * The password comes from the environment, never from the command line (shell history, ps).
 */
async function main(): Promise<void> {
  const [username, role, ...nameParts] = process.argv.slice(2);
  const password = process.env.STUDIO_USER_PASSWORD;
  if (!username || !role || !password) {
    throw new Error(
      'usage: STUDIO_USER_PASSWORD=<password> npm run user:add -- <username> <dealer|supervisor|auditor> [display name]',
    );
  }
  loadEnvFile(process.env.ENV_FILE);
  const config = loadStudioConfig(process.env);
  const db = await DatabaseConnection.open(config.database, 'studio:user-add');
  try {
    await db.runMigrations();
    const result = await new CreateUser(
      new UsersRepository(db.dataSource),
      new PasswordHasher(),
      new SystemClock(),
      new RandomUuidGenerator(),
      new PasswordPolicy(),
    ).execute({ username, role, password, displayName: nameParts.join(' ') || undefined });
    if (!result.ok) {
      const why = result.reason === 'weak-password' ? describePasswordProblem(result.problem) : '';
      throw new Error(`cannot add user "${username}": ${result.reason}${why ? ` (${why})` : ''}`);
    }
    console.log(`Added ${result.user.role} ${result.user.username}`);
  } finally {
    await db.close();
  }
}

main().catch((error) => {
  process.stderr.write(`${oneLine(error)}\n`);
  process.exit(1);
});
