package io.kafkaconfigadmin.testing;

import java.util.Map;

import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.PolicyViolationException;
import org.apache.kafka.server.policy.AlterConfigPolicy;

/**
 * Test-only AlterConfigPolicy used by {@code kafka_config_admin.testing}.
 *
 * <p>Rule: an alteration of a <b>topic</b> config is rejected when the resulting
 * {@code retention.ms} is a number below {@value #MIN_RETENTION_MS} (60 seconds), except
 * {@code -1}, which means "retain forever" and is always allowed. Every other resource type,
 * every other key and any non-numeric value is accepted (the broker's own validation still
 * applies to those).
 *
 * <p>The rejection surfaces to clients as error code 44 (POLICY_VIOLATION). In KRaft mode the
 * policy runs on the active controller, so the class must be on every controller's classpath.
 */
public final class MinRetentionAlterConfigPolicy implements AlterConfigPolicy {
    /** The smallest {@code retention.ms} a topic may be given, in milliseconds. */
    public static final long MIN_RETENTION_MS = 60_000L;

    private static final String RETENTION_MS = "retention.ms";

    @Override
    public void configure(Map<String, ?> configs) {
        // The rule is fixed on purpose so tests can rely on it; nothing to configure.
    }

    @Override
    public void validate(RequestMetadata requestMetadata) throws PolicyViolationException {
        if (requestMetadata.resource().type() != ConfigResource.Type.TOPIC) {
            return;
        }
        String value = requestMetadata.configs().get(RETENTION_MS);
        if (value == null) {
            return;
        }
        long retention;
        try {
            retention = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return; // Not ours to judge: the broker rejects malformed numbers itself.
        }
        if (retention != -1L && retention < MIN_RETENTION_MS) {
            throw new PolicyViolationException(
                "retention.ms=" + retention + " for topic '" + requestMetadata.resource().name()
                    + "' is below the test policy minimum of " + MIN_RETENTION_MS + " ms");
        }
    }

    @Override
    public void close() {
        // No resources held.
    }
}
