import { DynamicModule, Logger, Module, OnApplicationBootstrap } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { Clock, IdGenerator } from '../clock/clock';
import { AuthController } from './auth.controller';
import { ThrottlerModule } from '@nestjs/throttler';
import { AuthSettings } from './auth-settings';
import { AuthenticateToken, CreateUser, SecurityLog, SignIn, SignOut } from './auth.use-cases';
import { PasswordPolicy } from './password-policy';
import {
  PostgresThrottlerStorage,
  SignInFailuresRepository,
} from './sign-in-protection.repository';
import { accountTracker, addressTracker, SignInThrottlerGuard } from './sign-in-throttler.guard';
import { PasswordHasher } from './password-hasher';
import { RolesGuard } from './roles.guard';
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

/** Users, sign-in tokens and the role guard that protects every @Roles route. */
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
    const authenticate = new AuthenticateToken(users, clock);
    const createUser = new CreateUser(users, hasher, clock, ids, new PasswordPolicy());
    const signIn = new SignIn(
      users,
      hasher,
      clock,
      settings.sessionTtlMs,
      new SignInFailuresRepository(dataSource),
      settings.signIn,
      new SecurityLog(),
    );
    const { accountLimit, addressLimit, windowMs } = settings.signIn;
    return {
      module: AuthModule,
      imports: [
        ThrottlerModule.forRoot({
          storage: new PostgresThrottlerStorage(dataSource, clock),
          throttlers: [
            { name: 'account', limit: accountLimit, ttl: windowMs, getTracker: accountTracker },
            { name: 'address', limit: addressLimit, ttl: windowMs, getTracker: addressTracker },
          ],
        }),
      ],
      controllers: [AuthController],
      providers: [
        { provide: SignIn, useValue: signIn },
        { provide: Clock, useValue: clock },
        { provide: SignOut, useValue: new SignOut(users, clock) },
        { provide: AuthenticateToken, useValue: authenticate },
        { provide: CreateUser, useValue: createUser },
        { provide: DataSource, useValue: dataSource },
        { provide: APP_GUARD, useClass: RolesGuard },
        SignInThrottlerGuard,
        { provide: DemoUserSeeder, useValue: new DemoUserSeeder(createUser, settings.demoUsers) },
      ],
      exports: [AuthenticateToken, CreateUser],
    };
  }
}
