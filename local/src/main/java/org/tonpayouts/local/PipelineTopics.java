package org.tonpayouts.local;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.tonpayouts.schemas.Topic;
import org.tonpayouts.schemas.Topics;

/**
 * Creates every payout topic up front with one partition count. The count must be the same for all
 * of them: streams-app joins {@code payout.requests} and {@code payout.confirmations} by wallet key
 * in one task, which only works when both are partitioned alike.
 */
public final class PipelineTopics {
  private PipelineTopics() {}

  /** Creates the topics of {@link Topics#ALL} (replication factor 1); existing ones are left as they are. */
  public static void create(Admin admin, int partitions) {
    if (partitions < 1) {
      throw new IllegalArgumentException("partitions must be at least 1, got " + partitions);
    }
    List<NewTopic> topics = new ArrayList<>();
    for (Topic<String, ?> topic : Topics.ALL) {
      topics.add(new NewTopic(topic.name(), Optional.of(partitions), Optional.of((short) 1)));
    }
    admin.createTopics(topics).values().forEach((name, future) -> {
      try {
        future.get(30, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof TopicExistsException)) {
          throw new IllegalStateException("could not create topic " + name, e.getCause());
        }
      } catch (TimeoutException e) {
        throw new IllegalStateException("timed out creating topic " + name, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted creating topic " + name, e);
      }
    });
  }
}
