import { CreateTablesAndOutbox1764400000000 } from './1764400000000-CreateTablesAndOutbox';
import { CreateScannerReadings1764430000000 } from './1764430000000-CreateScannerReadings';
import { CreateUsersAndSessions1764440000000 } from './1764440000000-CreateUsersAndSessions';
import { CreateTableLeases1764450000000 } from './1764450000000-CreateTableLeases';
import { CreateRoundsAndHistory1764460000000 } from './1764460000000-CreateRoundsAndHistory';
import { CreateRoundHands1764465000000 } from './1764465000000-CreateRoundHands';
import { AuditIndexes1764470000000 } from './1764470000000-AuditIndexes';
import { TableStateAsJson1764480000000 } from './1764480000000-TableStateAsJson';
import { VoidRequestsLapse1764490000000 } from './1764490000000-VoidRequestsLapse';
import { RoundConfigurationSnapshot1764500000000 } from './1764500000000-RoundConfigurationSnapshot';
import { SignInProtection1764510000000 } from './1764510000000-SignInProtection';
import { OutboxProgressPerTable1764520000000 } from './1764520000000-OutboxProgressPerTable';
import { TableStateDeltas1764600000000 } from './1764600000000-TableStateDeltas';
import { AnswersInCommandRows1764700000000 } from './1764700000000-AnswersInCommandRows';
import { TransitionFunction1764710000000 } from './1764710000000-TransitionFunction';
import { CommandInbox1764800000000 } from './1764800000000-CommandInbox';
import { BetPlacementOrder1764810000000 } from './1764810000000-BetPlacementOrder';
import { DecisionWindow1764820000000 } from './1764820000000-DecisionWindow';
import { InstanceToken1764820500000 } from './1764820500000-InstanceToken';
import { CommandBatchTransition1764830000000 } from './1764830000000-CommandBatchTransition';
import { StatementRoundChecks1764846000000 } from './1764846000000-StatementRoundChecks';
import { GroupCommitTransitions1764857000000 } from './1764857000000-GroupCommitTransitions';
import { LeaseFenceKeyShare1764870000000 } from './1764870000000-LeaseFenceKeyShare';
import { SharedSecrets1765100000000 } from './1765100000000-SharedSecrets';
import { SignInAttemptsPerAddress1765100100000 } from './1765100100000-SignInAttemptsPerAddress';
import { Platforms1765200000000 } from './1765200000000-Platforms';
import { ChainVersions1765210000000 } from './1765210000000-ChainVersions';
import { OutboxChainHead1765210100000 } from './1765210100000-OutboxChainHead';
import { SessionLiveness1765250000000 } from './1765250000000-SessionLiveness';
import { PlayerPlatforms1765300000000 } from './1765300000000-PlayerPlatforms';
import { HistoryHotPathIndexes1765700000000 } from './1765700000000-HistoryHotPathIndexes';
import { CancelledBets1765800000000 } from './1765800000000-CancelledBets';
import { CurrenciesPerBet1765810000000 } from './1765810000000-CurrenciesPerBet';
import { RoundStakes1765900000000 } from './1765900000000-RoundStakes';
import { ScannerReadingKinds1765910000000 } from './1765910000000-ScannerReadingKinds';
import { CommandKeysPerPlatform1766000000000 } from './1766000000000-CommandKeysPerPlatform';
import { SettlementsByBet1766100000000 } from './1766100000000-SettlementsByBet';
import { ScannerReadingHours1766110000000 } from './1766110000000-ScannerReadingHours';
import { RoundHours1766120000000 } from './1766120000000-RoundHours';
import { VoidedInfiniteBetsRefunded1766130000000 } from './1766130000000-VoidedInfiniteBetsRefunded';
import { ShoeCardsByShoe1766140000000 } from './1766140000000-ShoeCardsByShoe';

/** Every migration, in order. Listed explicitly so the same array works from TS and compiled JS. */
export const STUDIO_MIGRATIONS = [
  CreateTablesAndOutbox1764400000000,
  CreateScannerReadings1764430000000,
  CreateUsersAndSessions1764440000000,
  CreateTableLeases1764450000000,
  CreateRoundsAndHistory1764460000000,
  CreateRoundHands1764465000000,
  AuditIndexes1764470000000,
  TableStateAsJson1764480000000,
  VoidRequestsLapse1764490000000,
  RoundConfigurationSnapshot1764500000000,
  SignInProtection1764510000000,
  OutboxProgressPerTable1764520000000,
  TableStateDeltas1764600000000,
  AnswersInCommandRows1764700000000,
  TransitionFunction1764710000000,
  CommandInbox1764800000000,
  BetPlacementOrder1764810000000,
  DecisionWindow1764820000000,
  InstanceToken1764820500000,
  CommandBatchTransition1764830000000,
  StatementRoundChecks1764846000000,
  GroupCommitTransitions1764857000000,
  LeaseFenceKeyShare1764870000000,
  SharedSecrets1765100000000,
  SignInAttemptsPerAddress1765100100000,
  Platforms1765200000000,
  ChainVersions1765210000000,
  OutboxChainHead1765210100000,
  SessionLiveness1765250000000,
  PlayerPlatforms1765300000000,
  HistoryHotPathIndexes1765700000000,
  CancelledBets1765800000000,
  CurrenciesPerBet1765810000000,
  RoundStakes1765900000000,
  ScannerReadingKinds1765910000000,
  CommandKeysPerPlatform1766000000000,
  SettlementsByBet1766100000000,
  ScannerReadingHours1766110000000,
  RoundHours1766120000000,
  VoidedInfiniteBetsRefunded1766130000000,
  ShoeCardsByShoe1766140000000,
];
