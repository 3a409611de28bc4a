package org.tonpayouts.local.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Predicate;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.devnet.chain.DevnetTransaction;
import org.tonpayouts.devnet.chain.jetton.JettonFlavor;
import org.tonpayouts.runtime.jettons.JettonCatalog;
import org.tonpayouts.schemas.JettonAmount;
import org.tonpayouts.schemas.JettonDelivery;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.jetton.JettonMessage;
import org.tonpayouts.ton.jetton.JettonTransfer;
import org.tonpayouts.ton.wallet.TransferOrder;

/**
 * One stablecoin on devnet as the auditor's tests pay it: the wallet order that hands a jetton
 * transfer to the payer's own jetton wallet, exactly as streams-app signs it, and the delivery the
 * chain then shows, read off devnet's jetton wallets the way chain-poller follows them (so a
 * settlement built from it names real transactions).
 */
final class DevnetJetton {
  /** The stablecoin's exit code for a locked jetton wallet (error::contract_locked). */
  static final int CONTRACT_LOCKED = 45;
  /** Receiving locked: the stablecoin's jetton wallet bounces every incoming transfer. */
  private static final int RECEIVING_LOCKED = 2;
  private static final Duration DEADLINE = Duration.ofSeconds(10);

  private final Devnet devnet;
  final TonAddress master;

  private DevnetJetton(Devnet devnet, TonAddress master) {
    this.devnet = devnet;
    this.master = master;
  }

  /** Deploys the stablecoin on {@code devnet} (applied at once). */
  static DevnetJetton deploy(Devnet devnet) {
    return new DevnetJetton(devnet,
        devnet.deployJetton(JettonFlavor.STABLECOIN, "https://tonpayouts.local/audit.json"));
  }

  /** {@code units} of the jetton, as a request names them. */
  JettonAmount amount(long units) {
    return new JettonAmount(master.toFriendly(true, false), BigInteger.valueOf(units));
  }

  void mint(TonAddress owner, BigInteger units) {
    devnet.mintJettons(master, owner, units);
  }

  /** Mints {@code heldBefore} to {@code owner} (deploying its jetton wallet), then locks it for receiving. */
  void lockForReceiving(TonAddress owner, BigInteger heldBefore) {
    mint(owner, heldBefore);
    assertThat(devnet.setJettonWalletStatus(master, owner, RECEIVING_LOCKED).wallet().status())
        .isEqualTo(RECEIVING_LOCKED);
  }

  BigInteger balance(TonAddress owner) {
    return devnet.jettonWallet(master, owner).balance();
  }

  TonAddress jettonWallet(TonAddress owner) {
    return devnet.jettonWallet(master, owner).address();
  }

  /**
   * {@code payer}'s order to its own jetton wallet paying {@code t}'s jetton to its destination,
   * the comment as forward payload, with the TON streams-app attaches by default.
   */
  TransferOrder order(TonAddress payer, ExpectedTransfer t, long queryId) {
    JettonTransfer body = new JettonTransfer(queryId, t.jetton().amount(), t.destination(), payer,
        JettonCatalog.DEFAULT_FORWARD_NANO, t.comment());
    return TransferOrder.withBody(jettonWallet(payer), JettonCatalog.DEFAULT_ATTACH_NANO, body.toCell(), true);
  }

  /**
   * Waits until the receiver's jetton wallet took (accepted or refused) the transfer {@code payer}
   * handed over with {@code queryId}, and a refusal's re-credit, and returns that chain as
   * chain-poller publishes it: delivered, or failed at the receiver with the re-credit.
   */
  JettonDelivery awaitDelivery(TonAddress payer, ExpectedTransfer t, long queryId) {
    TonAddress sender = jettonWallet(payer);
    TonAddress receiver = jettonWallet(t.destination());
    DevnetTransaction handedOver = await(sender, tx -> payer.equals(tx.inMsg().source())
        && JettonTransfer.read(tx.inMsg().body()).map(j -> j.queryId() == queryId).orElse(false));
    DevnetTransaction taken = await(receiver, tx -> sender.equals(tx.inMsg().source())
        && JettonMessage.read(tx.inMsg().body()) instanceof JettonMessage.InternalTransfer i && i.queryId() == queryId);
    if (!taken.aborted()) {
      return new JettonDelivery(master.toRaw(), t.jetton().amount(), queryId, sender.toRaw(), handedOver.hash(),
          handedOver.lt(), receiver.toRaw(), taken.hash(), taken.lt(), null, null, null);
    }
    DevnetTransaction recredit = await(sender, tx -> tx.inMsg().bounced() && receiver.equals(tx.inMsg().source()));
    return new JettonDelivery(master.toRaw(), t.jetton().amount(), queryId, sender.toRaw(), handedOver.hash(),
        handedOver.lt(), receiver.toRaw(), taken.hash(), taken.lt(), CONTRACT_LOCKED, receiver.toRaw(),
        recredit.hash());
  }

  /** The first transaction of {@code account} that {@code matches}, waiting block by block for it. */
  private DevnetTransaction await(TonAddress account, Predicate<DevnetTransaction> matches) {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (true) {
      Optional<DevnetTransaction> found = devnet.transactions(account).stream().filter(matches).findFirst();
      if (found.isPresent()) {
        return found.get();
      }
      assertThat(System.nanoTime()).as("a transaction of %s within %s", account, DEADLINE).isLessThan(deadline);
      devnet.awaitBlocks(1);
    }
  }
}
