/** One message of the commands topic, bytes as they arrived. */
export interface RawCommandMessage {
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  value: Buffer | null;
}
