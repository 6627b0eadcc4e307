import { UNSTORED_READING as HISTORY_UNSTORED } from '../history/writer/round-cards.repository';
import { UNSTORED_READING } from './ports';

describe('the tables’ ports', () => {
  it('name a reading not stored yet with the id the history writer stores it by', () => {
    expect(UNSTORED_READING).toBe(HISTORY_UNSTORED);
  });
});
