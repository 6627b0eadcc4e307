import { writeContractFiles } from './contract-files';

/** Platform simulator commands: `contract` regenerates the shipped contract files. */
async function main(argv: string[]): Promise<void> {
  const [command] = argv;
  if (command === 'contract') {
    const written = writeContractFiles(process.cwd());
    console.log(
      `Wrote ${written.length} contract files (docs/kafka-contract.md, libs/contracts/schemas/)`,
    );
    return;
  }
  console.error('usage: platform-simulator contract');
  process.exitCode = 2;
}

void main(process.argv.slice(2));
