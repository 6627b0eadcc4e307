import type { DataSource } from 'typeorm';

/** Secrets every instance shares (`shared_secrets`): the first writer's value wins, once. */
export class SharedSecretsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Two statements, not one: an insert that meets a concurrent one waits for it to commit, and
   * only a statement started after that sees the row the other instance stored.
   */
  async shared(name: string, candidate: Buffer): Promise<Buffer> {
    await this.dataSource.query(
      `INSERT INTO shared_secrets (name, secret, created_at) VALUES ($1, $2, now())
       ON CONFLICT (name) DO NOTHING`,
      [name, candidate],
    );
    const rows: Array<{ secret: Buffer }> = await this.dataSource.query(
      `SELECT secret FROM shared_secrets WHERE name = $1`,
      [name],
    );
    return Buffer.from(rows[0].secret);
  }
}
