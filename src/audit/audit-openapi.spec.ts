import 'reflect-metadata';
import { PATH_METADATA } from '@nestjs/common/constants';
import { AUDIT_OPENAPI } from './audit-openapi';
import { AuditController } from './audit.controller';

describe('AUDIT_OPENAPI', () => {
  it('documents every route of the audit controller, and nothing else', () => {
    const base = Reflect.getMetadata(PATH_METADATA, AuditController) as string;
    const proto = AuditController.prototype as unknown as Record<string, unknown>;
    const routes = Object.getOwnPropertyNames(proto)
      .filter((name) => name !== 'constructor')
      .map(
        (name) => Reflect.getMetadata(PATH_METADATA, proto[name] as object) as string | undefined,
      )
      .filter((path): path is string => path !== undefined)
      .map((path) => `/${base}/${path}`.replace(/:(\w+)/g, '{$1}'));
    expect(routes.length).toBe(8);
    expect(Object.keys(AUDIT_OPENAPI.paths).sort()).toEqual(routes.sort());
  });
});
