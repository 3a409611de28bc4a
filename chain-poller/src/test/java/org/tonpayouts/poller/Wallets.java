package org.tonpayouts.poller;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.devnet.chain.DevnetTransaction;
import org.tonpayouts.schemas.Submission;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.TonApi;
import org.tonpayouts.ton.keys.WalletKey;
import org.tonpayouts.ton.wallet.SignedTransfer;
import org.tonpayouts.ton.wallet.Subwallets;
import org.tonpayouts.ton.wallet.TransferOrder;
import org.tonpayouts.ton.wallet.TransferSigner;

/** Real signed WalletV4R2 messages for the tests, and the submissions streams-app would publish for them. */
final class Wallets {
  static final long TON = 1_000_000_000L;
  /** A test-only key (never funded anywhere but devnet). */
  static final WalletKey KEY = WalletKey.fromSeedHex("4f1a7c6e0b2d9385a6c4e2f1d0b9a8c7e6f5d4c3b2a1908f7e6d5c4b3a291807");
  static final TonAddress ALICE = TonAddress.of(0, filled((byte) 0xa1));
  static final TonAddress BOB = TonAddress.of(0, filled((byte) 0xb0));

  final Subwallets subwallets = new Subwallets(KEY, 0);
  final TransferSigner signer = new TransferSigner(subwallets);

  TonAddress address(long subwalletId) {
    return subwallets.address(subwalletId);
  }

  SignedTransfer sign(long subwalletId, long seqno, Instant validUntil, TonAddress to, long amountNano) {
    return signer.sign(subwalletId, seqno, validUntil, List.of(new TransferOrder(to, amountNano, null, false)));
  }

  static void send(TonApi api, SignedTransfer t) {
    api.sendBocReturnHash(t.boc()).join();
  }

  static Submission submission(SignedTransfer t, String requestId, Instant submittedAt) {
    TransferOrder order = t.orders().get(0);
    return Submission.first(requestId, requestId + "-t0", 0, t.subwalletId(), t.wallet().toRaw(), t.seqno(),
        t.messageHash(), t.normalizedHash(), t.validUntil(), order.destination().toFriendly(true, false),
        order.amountNano(), submittedAt, order.bounce());
  }

  /** The devnet transaction whose inbound message is {@code hash}, if any. */
  static Optional<DevnetTransaction> transactionOf(Devnet devnet, TonAddress wallet, String hash) {
    return devnet.transactions(wallet).stream().filter(tx -> tx.inMsg().hash().equals(hash)).findFirst();
  }

  private static byte[] filled(byte b) {
    byte[] hash = new byte[32];
    java.util.Arrays.fill(hash, b);
    return hash;
  }
}
