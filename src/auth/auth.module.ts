import { DynamicModule, Logger, Module, OnApplicationBootstrap } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { Clock, IdGenerator } from '../clock/clock';
import { AuthController } from './auth.controller';
import { AuthenticateToken, CreateUser, SignIn, SignOut } from './auth.use-cases';
import { PasswordHasher } from './password-hasher';
import { RolesGuard } from './roles.guard';

export interface AuthSettings {
  sessionTtlMs: number;
  /** Seed dealer/supervisor/auditor demo users (embedded demo only; see README). */
  demoUsers: boolean;
}

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
      const result = await this.createUser.execute(user);
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
    const authenticate = new AuthenticateToken(dataSource, clock);
    const createUser = new CreateUser(dataSource, hasher, clock, ids);
    return {
      module: AuthModule,
      controllers: [AuthController],
      providers: [
        { provide: SignIn, useValue: new SignIn(dataSource, hasher, clock, settings.sessionTtlMs) },
        { provide: SignOut, useValue: new SignOut(dataSource, clock) },
        { provide: AuthenticateToken, useValue: authenticate },
        { provide: CreateUser, useValue: createUser },
        { provide: DataSource, useValue: dataSource },
        { provide: APP_GUARD, useClass: RolesGuard },
        { provide: DemoUserSeeder, useValue: new DemoUserSeeder(createUser, settings.demoUsers) },
      ],
      exports: [AuthenticateToken, CreateUser],
    };
  }
}
