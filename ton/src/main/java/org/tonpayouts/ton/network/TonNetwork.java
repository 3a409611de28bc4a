package org.tonpayouts.ton.network;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The TON network a deployment pays on ({@code ton.network}), known by the global id its nodes
 * report (configuration parameter 19, {@code _ global_id:int32 = ConfigParam 19;}). Messages carry
 * no network: a message signed for one network applies on the other when the same key has a wallet
 * there, so the processes read the node's global id at start and refuse a node of another network.
 *
 * <p>Mainnet's -239 and testnet's -3 are the ids the TON SDKs use for the same purpose (WalletV5's
 * {@code network_global_id}). devnet, this project's local chain, is neither: it answers with
 * {@link #DEVNET_GLOBAL_ID}, an id no public TON network uses, so a deployment configured for mainnet
 * or testnet refuses it as surely as it refuses the other public network.
 */
public enum TonNetwork {
  MAINNET("mainnet", -239),
  TESTNET("testnet", -3),
  DEVNET("devnet", TonNetwork.DEVNET_GLOBAL_ID);

  /** The global id devnet reports: chosen for devnet, used by no public TON network. */
  public static final int DEVNET_GLOBAL_ID = -42;

  private final String configName;
  private final int globalId;

  TonNetwork(String configName, int globalId) {
    this.configName = configName;
    this.globalId = globalId;
  }

  /** The value of {@code ton.network} that names this network. */
  public String configName() {
    return configName;
  }

  /** The global id (configuration parameter 19) its nodes report. */
  public int globalId() {
    return globalId;
  }

  /**
   * Whether destinations flagged for testnet ({@code kQ…}, {@code 0Q…}) may be paid. Only mainnet
   * refuses them: there real money goes to whatever account the address names, and a testnet-flagged
   * address on mainnet is most often a producer mixing up its environments. Testnet and devnet take
   * both forms, as testnet tools show either.
   */
  public boolean paysTestnetFlaggedAddresses() {
    return this != MAINNET;
  }

  /** The network named {@code name} ({@code mainnet}, {@code testnet}, {@code devnet}; any case). */
  public static Optional<TonNetwork> byName(String name) {
    if (name == null) {
      return Optional.empty();
    }
    String wanted = name.strip().toLowerCase(Locale.ROOT);
    return Arrays.stream(values()).filter(n -> n.configName.equals(wanted)).findFirst();
  }

  /** The network whose nodes report {@code globalId}, if it is one of these. */
  public static Optional<TonNetwork> ofGlobalId(int globalId) {
    return Arrays.stream(values()).filter(n -> n.globalId == globalId).findFirst();
  }

  /** {@code -239 (mainnet)}, or {@code 7 (no network this service knows)}: a global id for a message. */
  public static String describeGlobalId(int globalId) {
    return globalId + ofGlobalId(globalId).map(n -> " (" + n.configName + ")").orElse(" (no network this service knows)");
  }

  @Override
  public String toString() {
    return configName;
  }
}
