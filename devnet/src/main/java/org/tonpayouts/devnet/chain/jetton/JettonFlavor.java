package org.tonpayouts.devnet.chain.jetton;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Locale;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.MessageCells;
import org.tonpayouts.ton.cell.TonCell;

/**
 * The two TEP-74 jetton implementations devnet runs, with their real compiled code (the BOCs of
 * ton4j 1.3.5's {@code WalletCodes}, in this package's resources): a jetton wallet's address is
 * the hash of its StateInit (that code, the initial data laid out as the contract lays it out),
 * so devnet derives the addresses mainnet derives for the same code, owner and master.
 *
 * <ul>
 *   <li>{@link #REFERENCE}: {@code ton-blockchain/token-contract} {@code ft/jetton-wallet.fc} and
 *       {@code ft/jetton-minter.fc} as compiled in ton4j, which is the 2022-04-18 code (commits
 *       4bb6abd/72f0341, which differ only in burn):
 *       no 708 check, a bounceable {@code transfer_notification}, {@code gas_consumption} 0.01 TON,
 *       the inbound {@code fwd_fee} used as is. (ton4j ships the 2023 FunC source beside it, which
 *       does not match; the golden traces show what the code does.) Wallet data
 *       {@code balance:Coins owner master ^code}.</li>
 *   <li>{@link #STABLECOIN}: {@code ton-blockchain/stablecoin-contract} (the USDT-style jetton with
 *       a status per wallet and an admin). Wallet data {@code status:uint4 balance:Coins owner master};
 *       on mainnet its code is a library cell, here it is the full code cell.</li>
 * </ul>
 */
public enum JettonFlavor {
  REFERENCE("reference-wallet", "reference-minter"),
  STABLECOIN("stablecoin-wallet", "stablecoin-minter");

  private final TonCell walletCode;
  private final TonCell minterCode;

  JettonFlavor(String wallet, String minter) {
    this.walletCode = code(wallet);
    this.minterCode = code(minter);
  }

  public TonCell walletCode() {
    return walletCode;
  }

  public TonCell minterCode() {
    return minterCode;
  }

  /** The lowercase name the admin API takes ({@code reference}, {@code stablecoin}). */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static JettonFlavor of(String id) {
    for (JettonFlavor flavor : values()) {
      if (flavor.id().equalsIgnoreCase(id)) {
        return flavor;
      }
    }
    throw new IllegalArgumentException("unknown jetton flavor '" + id + "' (reference or stablecoin)");
  }

  /**
   * The data of {@code owner}'s jetton wallet of {@code master} with {@code balance} (and, for the
   * stablecoin, {@code status}), as the contract stores it.
   */
  public TonCell walletData(int status, BigInteger balance, TonAddress owner, TonAddress master) {
    return this == REFERENCE
        ? ReferenceJettonWallet.dataCell(balance, owner, master, walletCode)
        : StablecoinJettonWallet.dataCell(status, balance, owner, master);
  }

  /** {@code calculate_jetton_wallet_state_init}: the wallet's code and its data with balance 0 (and status 0). */
  public TonCell walletStateInit(TonAddress owner, TonAddress master) {
    return MessageCells.stateInit(walletCode, walletData(0, BigInteger.ZERO, owner, master));
  }

  /** {@code calculate_user_jetton_wallet_address}: the basechain address of {@code owner}'s jetton wallet. */
  public TonAddress walletAddress(TonAddress owner, TonAddress master) {
    return TonAddress.of(TonAddress.BASECHAIN, walletStateInit(owner, master).hash());
  }

  private static TonCell code(String name) {
    String path = name + ".boc.hex";
    try (InputStream in = JettonFlavor.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("devnet resource " + path + " is missing");
      }
      String hex = new String(in.readAllBytes(), StandardCharsets.US_ASCII).strip();
      return TonCell.fromBoc(HexFormat.of().parseHex(hex));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read devnet resource " + path, e);
    }
  }
}
