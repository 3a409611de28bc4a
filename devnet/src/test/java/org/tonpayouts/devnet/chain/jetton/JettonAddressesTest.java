package org.tonpayouts.devnet.chain.jetton;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.ton.ton4j.address.Address;
import org.ton.ton4j.cell.Cell;
import org.ton.ton4j.cell.CellBuilder;
import org.ton.ton4j.smartcontract.types.WalletCodes;
import org.tonpayouts.ton.address.TonAddress;

/**
 * devnet derives jetton addresses as mainnet does for the same code: the code it ships is ton4j's
 * {@code WalletCodes} byte for byte, and a wallet's or minter's address is the hash of its
 * StateInit, which ton4j's own cells (not devnet's) rebuild here from the contracts' data layouts.
 * (The golden traces check the same addresses against the real minters' {@code get_wallet_address}.)
 */
class JettonAddressesTest {
  private final Random random = new Random(26);

  @Test
  void shouldShipTon4jsCompiledCodeByteForByte() throws IOException {
    assertThat(resource("reference-wallet")).isEqualTo(WalletCodes.jettonWallet.getValue());
    assertThat(resource("reference-minter")).isEqualTo(WalletCodes.jettonMinter.getValue());
    assertThat(resource("stablecoin-wallet")).isEqualTo(WalletCodes.jettonWalletStableCoin.getValue());
    assertThat(resource("stablecoin-minter")).isEqualTo(WalletCodes.jettonMinterStableCoin.getValue());
    assertThat(JettonFlavor.REFERENCE.walletCode().hashHex()).isEqualTo(hash(code(WalletCodes.jettonWallet)));
    assertThat(JettonFlavor.STABLECOIN.minterCode().hashHex()).isEqualTo(hash(code(WalletCodes.jettonMinterStableCoin)));
  }

  @Test
  void shouldDeriveTheReferenceWalletAddressOfAnyOwnerAsTon4jDoes() {
    Cell code = code(WalletCodes.jettonWallet);
    for (int i = 0; i < 20; i++) {
      TonAddress owner = someAddress(i % 5 == 0 ? -1 : 0);
      TonAddress master = someAddress(0);
      Cell data = CellBuilder.beginCell()
          .storeCoins(BigInteger.ZERO)
          .storeAddress(ton4j(owner))
          .storeAddress(ton4j(master))
          .storeRef(code)
          .endCell();
      assertThat(JettonFlavor.REFERENCE.walletAddress(owner, master).toRaw()).as("owner %s", owner)
          .isEqualTo("0:" + hash(stateInit(code, data)));
    }
  }

  @Test
  void shouldDeriveTheStablecoinWalletAddressOfAnyOwnerAsTon4jDoes() {
    Cell code = code(WalletCodes.jettonWalletStableCoin);
    for (int i = 0; i < 20; i++) {
      TonAddress owner = someAddress(0);
      TonAddress master = someAddress(0);
      Cell data = CellBuilder.beginCell()
          .storeUint(0, 4)
          .storeCoins(BigInteger.ZERO)
          .storeAddress(ton4j(owner))
          .storeAddress(ton4j(master))
          .endCell();
      assertThat(JettonFlavor.STABLECOIN.walletAddress(owner, master).toRaw()).as("owner %s", owner)
          .isEqualTo("0:" + hash(stateInit(code, data)));
    }
  }

  @Test
  void shouldDeriveTheMasterAddressFromTheMintersStateInit() {
    TonAddress admin = JettonAdmin.ADMIN;
    byte[] uri = "devnet:jetton/x".getBytes(StandardCharsets.UTF_8);
    Cell referenceData = CellBuilder.beginCell()
        .storeCoins(BigInteger.ZERO)
        .storeAddress(ton4j(admin))
        .storeRef(CellBuilder.beginCell().storeUint(1, 8).storeBytes(uri).endCell())
        .storeRef(code(WalletCodes.jettonWallet))
        .endCell();
    Cell stablecoinData = CellBuilder.beginCell()
        .storeCoins(BigInteger.ZERO)
        .storeAddress(ton4j(admin))
        .storeUint(0, 2)                                  // next_admin_address: addr_none
        .storeRef(code(WalletCodes.jettonWalletStableCoin))
        .storeRef(CellBuilder.beginCell().storeBytes(uri).endCell())
        .endCell();

    assertThat(JettonAdmin.masterAddress(JettonFlavor.REFERENCE, "devnet:jetton/x").toRaw())
        .isEqualTo("0:" + hash(stateInit(code(WalletCodes.jettonMinter), referenceData)));
    assertThat(JettonAdmin.masterAddress(JettonFlavor.STABLECOIN, "devnet:jetton/x").toRaw())
        .isEqualTo("0:" + hash(stateInit(code(WalletCodes.jettonMinterStableCoin), stablecoinData)));
  }

  /** {@code split_depth:nothing special:nothing code:^Cell data:^Cell library:empty}. */
  private static Cell stateInit(Cell code, Cell data) {
    return CellBuilder.beginCell().storeUint(0, 2).storeBit(true).storeRef(code).storeBit(true).storeRef(data)
        .storeBit(false).endCell();
  }

  private TonAddress someAddress(int workchain) {
    byte[] hash = new byte[32];
    random.nextBytes(hash);
    return TonAddress.of(workchain, hash);
  }

  private static Address ton4j(TonAddress address) {
    return Address.of(address.toRaw());
  }

  private static Cell code(WalletCodes code) {
    return Cell.fromBoc(code.getValue());
  }

  /** ton4j reports a parsed cell's hash only once rebuilt with its builder (a ton4j quirk). */
  private static String hash(Cell cell) {
    return HexFormat.of().formatHex(CellBuilder.beginCell().storeCell(cell).endCell().getHash());
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = JettonFlavor.class.getResourceAsStream(name + ".boc.hex")) {
      return new String(in.readAllBytes(), StandardCharsets.US_ASCII).strip();
    }
  }
}
