package org.tonpayouts.local;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The ACLs docs/production.md lists, read from its {@code kafka-acls.sh} lines, so the secured
 * end-to-end test grants exactly what the guide tells operators to grant. Reads the options those
 * lines use and refuses any other: a line the test could not apply as written fails the test
 * instead of being skipped.
 */
final class DocumentedAcls {
  /** The comment that precedes the fenced block of ACL lines. */
  static final String MARKER = "<!-- acls: SecuredPipelineTest applies exactly the kafka-acls.sh lines";

  private DocumentedAcls() {}

  /** Every binding of the block after {@link #MARKER} in {@code page}. */
  static List<AclBinding> from(String page) {
    int marker = page.indexOf(MARKER);
    if (marker < 0) {
      throw new IllegalArgumentException("the page has no ACL block (" + MARKER + ")");
    }
    int open = page.indexOf("```\n", marker);
    int close = page.indexOf("```", open + 4);
    List<AclBinding> bindings = new ArrayList<>();
    for (String line : page.substring(open + 4, close).lines().toList()) {
      if (!line.isBlank() && !line.startsWith("#")) {
        bindings.addAll(parse(line));
      }
    }
    return bindings;
  }

  /** One {@code kafka-acls.sh $ADMIN --add ...} line as bindings (every principal x operation x resource). */
  static List<AclBinding> parse(String line) {
    String[] words = line.trim().split("\\s+");
    if (!words[0].equals("kafka-acls.sh") || !words[1].equals("$ADMIN") || !words[2].equals("--add")) {
      throw new IllegalArgumentException("not a 'kafka-acls.sh $ADMIN --add' line: " + line);
    }
    List<String> principals = new ArrayList<>();
    List<AclOperation> operations = new ArrayList<>();
    List<ResourcePattern> resources = new ArrayList<>();
    List<String[]> named = new ArrayList<>();
    PatternType pattern = PatternType.LITERAL;
    for (int i = 3; i < words.length; i++) {
      String option = words[i];
      if (option.equals("--cluster")) {
        named.add(new String[] {"cluster", "kafka-cluster"});
        continue;
      }
      String value = words[++i];
      switch (option) {
        case "--allow-principal" -> principals.add(value);
        // kafka-acls.sh spells them DescribeConfigs, IdempotentWrite; the enum DESCRIBE_CONFIGS, IDEMPOTENT_WRITE
        case "--operation" -> operations.add(AclOperation.fromString(
            value.replaceAll("([a-z])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT)));
        case "--topic", "--group", "--transactional-id" -> named.add(new String[] {option.substring(2), value});
        case "--resource-pattern-type" -> pattern = PatternType.fromString(value.toUpperCase(Locale.ROOT));
        default -> throw new IllegalArgumentException("option " + option + " is not read by this test: " + line);
      }
    }
    for (String[] resource : named) {
      ResourceType type = switch (resource[0]) {
        case "topic" -> ResourceType.TOPIC;
        case "group" -> ResourceType.GROUP;
        case "transactional-id" -> ResourceType.TRANSACTIONAL_ID;
        default -> ResourceType.CLUSTER;
      };
      resources.add(new ResourcePattern(type, resource[1], type == ResourceType.CLUSTER ? PatternType.LITERAL : pattern));
    }
    if (principals.isEmpty() || operations.isEmpty() || resources.isEmpty()
        || operations.contains(AclOperation.UNKNOWN) || pattern == PatternType.UNKNOWN) {
      throw new IllegalArgumentException("incomplete or unknown ACL line: " + line);
    }
    List<AclBinding> bindings = new ArrayList<>();
    for (String principal : principals) {
      for (AclOperation operation : operations) {
        for (ResourcePattern resource : resources) {
          bindings.add(new AclBinding(resource,
              new AccessControlEntry(principal, "*", operation, AclPermissionType.ALLOW)));
        }
      }
    }
    return bindings;
  }
}
