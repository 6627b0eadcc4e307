import { DynamicModule, Logger, Module, OnApplicationBootstrap } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { DataSource } from 'typeorm';
import { Clock, IdGenerator } from '../clock/clock';
import { AuthController } from './auth.controller';
import { AuthSettings } from './auth-settings';
import { AuthenticateToken } from './authenticate-token/authenticate-token.use-case';
import { CreateUser } from './create-user/create-user.use-case';
import { ListUsers } from './list-users/list-users.use-case';
import { PasswordHasher } from './password-hasher';
import { PasswordPolicy } from './password-policy';
import { RolesGuard } from './roles.guard';
import { SecurityLog } from './security-log';
import { SignIn } from './sign-in/sign-in.use-case';
import {
  PostgresThrottlerStorage,
  SignInAttemptsRepository,
} from './sign-in-protection.repository';
import { addressTracker, SignInThrottlerGuard } from './sign-in-throttler.guard';
import { SignOut } from './sign-out/sign-out.use-case';
import { UsersRepository } from './users.repository';

export type { AuthSettings } from './auth-settings';

export const DEMO_USERS = [
  { username: 'dealer', role: 'dealer', password: 'dealer-demo', displayName: 'Demo Dealer' },
  {
    username: 'supervisor',
    role: 'supervisor',
    password: 'supervisor-demo',
    displayName: 'Demo Supervisor',
  },
  { username: 'auditor', role: 'auditor', password: 'auditor-demo', displayName: 'Demo Auditor' },
] as const;

class DemoUserSeeder implements OnApplicationBootstrap {
  private readonly logger = new Logger('DemoUsers');
  constructor(
    private readonly createUser: CreateUser,
    private readonly enabled: boolean,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.enabled) return;
    for (const user of DEMO_USERS) {
      const result = await this.createUser.execute(user, { demoUser: true });
      if (result.ok) this.logger.log(`Demo ${user.role} "${user.username}" created (see README)`);
    }
  }
}

/**
 * Users, sign-in tokens and the role guard that protects every @Roles route. Exports the security
 * log, whose counts the metrics read.
 */
@Module({})
export class AuthModule {
  static forRoot(deps: {
    dataSource: DataSource;
    clock: Clock;
    ids: IdGenerator;
    settings: AuthSettings;
  }): DynamicModule {
    const { dataSource, clock, ids, settings } = deps;
    const hasher = new PasswordHasher();
    const users = new UsersRepository(dataSource);
    const security = new SecurityLog();
    const authenticate = new AuthenticateToken(users, clock);
    const createUser = new CreateUser(users, hasher, clock, ids, new PasswordPolicy());
    const signIn = new SignIn(
      users,
      hasher,
      clock,
      settings.sessionTtlMs,
      new SignInAttemptsRepository(dataSource, settings.signIn.accountWindowMs),
      settings.signIn,
      security,
    );
    const { addressLimit, windowMs } = settings.signIn;
    return {
      module: AuthModule,
      imports: [
        ThrottlerModule.forRoot({
          storage: new PostgresThrottlerStorage(dataSource, clock),
          throttlers: [
            { name: 'address', limit: addressLimit, ttl: windowMs, getTracker: addressTracker },
          ],
        }),
      ],
      controllers: [AuthController],
      providers: [
        { provide: SignIn, useValue: signIn },
        { provide: Clock, useValue: clock },
        { provide: SignOut, useValue: new SignOut(users, clock, authenticate) },
        { provide: ListUsers, useValue: new ListUsers(users) },
        { provide: AuthenticateToken, useValue: authenticate },
        { provide: CreateUser, useValue: createUser },
        { provide: SecurityLog, useValue: security },
        { provide: APP_GUARD, useClass: RolesGuard },
        SignInThrottlerGuard,
        { provide: DemoUserSeeder, useValue: new DemoUserSeeder(createUser, settings.demoUsers) },
      ],
      exports: [AuthenticateToken, CreateUser, SecurityLog],
    };
  }
}
