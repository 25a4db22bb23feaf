// Prints, as JSON on stdout, the ConfigDefs of the Kafka release whose jars are on the class
// path: topic, broker (with the dynamic update modes), group and client-metrics configs, and
// the highest version of each API the release's brokers advertise.
//
// Run as a single-file program (Java 11+), no build step:
//   java -cp '<kafka jars>/*' ConfigCatalog.java
//
// The classes holding the ConfigDefs moved between releases (Scala objects in 2.x, Java classes
// in the storage, server and coordinator modules later), so each is looked up among a list of
// known homes by reflection, and a release that has none of them simply lacks that kind.
// Validators are written as their class name, their toString() and their own fields, read by
// reflection; tools/config_catalog.py turns them into valid values.

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.kafka.common.config.ConfigDef;

public class ConfigCatalog {
    private static final String[][] TOPIC = {
        {"org.apache.kafka.storage.internals.log.LogConfig", "configDefCopy"},
        {"kafka.log.LogConfig$", "configDefCopy"},
    };
    private static final String[][] BROKER = {
        {"kafka.server.KafkaConfig$", "configDef"},
        {"kafka.server.KafkaConfig$", "kafka$server$KafkaConfig$$configDef"},
        {"org.apache.kafka.server.config.AbstractKafkaConfig", "CONFIG_DEF"},
    };
    // Broker keys outside KafkaConfig's ConfigDef that a broker takes dynamically (the
    // replication throttle rates): merged into the broker kind; like the cluster-wide keys,
    // they may be set on the cluster default and on one broker.
    private static final String[][] BROKER_EXTRA = {
        {"org.apache.kafka.server.config.QuotaConfig", "brokerQuotaConfigs"},
        {"org.apache.kafka.server.config.DynamicConfig$Broker", "brokerConfigs"},
        {"kafka.server.DynamicConfig$Broker$", "brokerConfigs"},
        {"kafka.server.DynamicConfig$Broker$", "brokerConfigDef"},
    };
    private static final String[][] UPDATE_MODES = {
        {"org.apache.kafka.server.config.DynamicBrokerConfig", "dynamicConfigUpdateModes"},
        {"kafka.server.DynamicBrokerConfig$", "dynamicConfigUpdateModes"},
    };
    private static final String[][] GROUP = {
        {"org.apache.kafka.coordinator.group.GroupConfig", "CONFIG_DEF"},
        {"org.apache.kafka.coordinator.group.GroupConfig", "configDef"},
    };
    private static final String[][] CLIENT_METRICS = {
        {"org.apache.kafka.server.metrics.ClientMetricsConfigs", "configDef"},
        {"org.apache.kafka.server.metrics.ClientMetricsConfigs", "CONFIG"},
        {"kafka.metrics.ClientMetricsConfigs", "configDef"},
    };

    public static void main(String[] args) throws Exception {
        StringBuilder out = new StringBuilder("{");
        out.append("\"release\":").append(quote(releaseVersion()));
        out.append(",\"kinds\":{");
        boolean first = true;
        Map<String, String> modes = asStringMap(firstFound(UPDATE_MODES));
        String[] names = {"topic", "broker", "group", "client_metrics"};
        String[][][] homes = {TOPIC, BROKER, GROUP, CLIENT_METRICS};
        for (int i = 0; i < names.length; i++) {
            Map<String, ConfigDef.ConfigKey> keys = configKeys(firstFound(homes[i]));
            if (keys == null) {
                continue;
            }
            Map<String, String> kindModes = null;
            if (names[i].equals("broker")) {
                kindModes = new TreeMap<>();
                for (String[] home : BROKER_EXTRA) {
                    Map<String, ConfigDef.ConfigKey> extra = configKeys(find(home[0], home[1]));
                    if (extra != null) {
                        for (String key : extra.keySet()) {
                            kindModes.put(key, "cluster-wide");
                        }
                        extra.forEach(keys::putIfAbsent);
                    }
                }
                if (modes != null) {
                    kindModes.putAll(modes);
                }
            }
            out.append(first ? "" : ",").append(quote(names[i])).append(":");
            writeKeys(out, keys, kindModes);
            first = false;
        }
        out.append("},\"api_versions\":");
        writeApiVersions(out);
        out.append("}");
        System.out.println(out);
    }

    // AppInfoParser moved to an internals package in Kafka 4.4.
    private static final String[][] APP_INFO = {
        {"org.apache.kafka.common.utils.internals.AppInfoParser", "getVersion"},
        {"org.apache.kafka.common.utils.AppInfoParser", "getVersion"},
    };

    private static String releaseVersion() {
        Object version = firstFound(APP_INFO);
        if (version == null) {
            throw new IllegalStateException("no AppInfoParser on the class path: not Kafka jars?");
        }
        return version.toString();
    }

    private static Object firstFound(String[][] homes) {
        for (String[] home : homes) {
            Object found = find(home[0], home[1]);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /** A static member (field or no-argument method), or the member of a Scala object. */
    private static Object find(String className, String member) {
        Class<?> type;
        try {
            type = Class.forName(className);
        } catch (ClassNotFoundException | LinkageError missing) {
            return null;
        }
        Object module = null;
        try {
            Field moduleField = type.getDeclaredField("MODULE$");
            module = moduleField.get(null);
        } catch (ReflectiveOperationException notScala) {
            // a Java class: static members only
        }
        try {
            for (Method method : type.getDeclaredMethods()) {
                if (method.getName().equals(member) && method.getParameterCount() == 0) {
                    method.setAccessible(true);
                    Object self = Modifier.isStatic(method.getModifiers()) ? null : module;
                    if (self != null || Modifier.isStatic(method.getModifiers())) {
                        return method.invoke(self);
                    }
                }
            }
            for (Field field : type.getDeclaredFields()) {
                if (field.getName().equals(member)) {
                    field.setAccessible(true);
                    Object self = Modifier.isStatic(field.getModifiers()) ? null : module;
                    if (self != null || Modifier.isStatic(field.getModifiers())) {
                        return field.get(self);
                    }
                }
            }
        } catch (ReflectiveOperationException | RuntimeException | LinkageError failed) {
            System.err.println("could not read " + className + "." + member + ": " + failed);
        }
        return null;
    }

    private static Map<String, ConfigDef.ConfigKey> configKeys(Object found) {
        if (found instanceof ConfigDef) {
            return new TreeMap<>(((ConfigDef) found).configKeys());
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> asStringMap(Object found) {
        return found instanceof Map ? (Map<String, String>) found : null;
    }

    private static void writeKeys(
            StringBuilder out, Map<String, ConfigDef.ConfigKey> keys, Map<String, String> modes) {
        out.append("{");
        boolean first = true;
        for (ConfigDef.ConfigKey key : keys.values()) {
            out.append(first ? "" : ",").append(quote(key.name)).append(":{");
            out.append("\"type\":").append(quote(key.type.name()));
            out.append(",\"importance\":").append(quote(key.importance.name()));
            boolean required = key.defaultValue == ConfigDef.NO_DEFAULT_VALUE;
            out.append(",\"required\":").append(required);
            String shownDefault = null;
            if (!required && key.defaultValue != null) {
                shownDefault = key.type == ConfigDef.Type.PASSWORD
                        ? "[hidden]"
                        : ConfigDef.convertToString(key.defaultValue, key.type);
            }
            out.append(",\"default\":").append(quote(shownDefault));
            out.append(",\"internal\":").append(isInternal(key));
            if (modes != null) {
                out.append(",\"update_mode\":").append(quote(modes.getOrDefault(key.name, "read-only")));
            }
            out.append(",\"validator\":");
            writeValue(out, key.validator, 0);
            out.append("}");
            first = false;
        }
        out.append("}");
    }

    private static boolean isInternal(ConfigDef.ConfigKey key) {
        try {
            return key.getClass().getField("internalConfig").getBoolean(key);
        } catch (ReflectiveOperationException older) {
            return false;
        }
    }

    /** A validator (or a value inside one) as JSON: its class, text and own fields. */
    private static void writeValue(StringBuilder out, Object value, int depth) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof Boolean || value instanceof Number) {
            out.append(quote(String.valueOf(value)));
        } else if (value instanceof CharSequence || value instanceof Enum) {
            out.append(quote(value.toString()));
        } else if (value instanceof Collection) {
            out.append("[");
            boolean first = true;
            for (Object member : (Collection<?>) value) {
                out.append(first ? "" : ",");
                writeValue(out, member, depth + 1);
                first = false;
            }
            out.append("]");
        } else if (value instanceof ConfigDef.Validator && depth < 4) {
            out.append("{\"class\":").append(quote(value.getClass().getName()));
            out.append(",\"text\":").append(quote(safeToString(value)));
            out.append(",\"fields\":{");
            boolean first = true;
            for (Class<?> type = value.getClass(); type != null && type != Object.class;
                    type = type.getSuperclass()) {
                for (Field field : type.getDeclaredFields()) {
                    if (Modifier.isStatic(field.getModifiers()) || field.isSynthetic()) {
                        continue;
                    }
                    Object member;
                    try {
                        field.setAccessible(true);
                        member = field.get(value);
                    } catch (ReflectiveOperationException | RuntimeException unreadable) {
                        continue;
                    }
                    if (!isPlain(member)) {
                        continue;
                    }
                    out.append(first ? "" : ",").append(quote(field.getName())).append(":");
                    writeValue(out, member, depth + 1);
                    first = false;
                }
            }
            out.append("}}");
        } else {
            out.append("null");
        }
    }

    private static boolean isPlain(Object member) {
        if (member == null || member instanceof Boolean || member instanceof Number
                || member instanceof CharSequence || member instanceof Enum
                || member instanceof ConfigDef.Validator) {
            return true;
        }
        if (member instanceof Collection) {
            for (Object item : (Collection<?>) member) {
                if (!isPlain(item)) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    private static String safeToString(Object value) {
        try {
            return String.valueOf(value);
        } catch (RuntimeException failed) {
            return null;
        }
    }

    /** The highest version of each API this release's brokers advertise by default. */
    private static void writeApiVersions(StringBuilder out) throws Exception {
        Class<?> apiKeys = Class.forName("org.apache.kafka.common.protocol.ApiKeys");
        Method stable = null;
        try {
            stable = apiKeys.getMethod("latestVersion", boolean.class);
        } catch (NoSuchMethodException older) {
            // before unstable versions existed, latestVersion() is what a broker advertises
        }
        Method latest = apiKeys.getMethod("latestVersion");
        Field id = apiKeys.getField("id");
        List<String> parts = new ArrayList<>();
        for (Object api : apiKeys.getEnumConstants()) {
            Object version = stable != null ? stable.invoke(api, false) : latest.invoke(api);
            parts.add(quote(String.valueOf(id.get(api))) + ":" + version);
        }
        out.append("{").append(String.join(",", parts)).append("}");
    }

    private static String quote(String text) {
        if (text == null) {
            return "null";
        }
        StringBuilder quoted = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"': quoted.append("\\\""); break;
                case '\\': quoted.append("\\\\"); break;
                case '\n': quoted.append("\\n"); break;
                case '\r': quoted.append("\\r"); break;
                case '\t': quoted.append("\\t"); break;
                default:
                    if (c < 0x20) {
                        quoted.append(String.format("\\u%04x", (int) c));
                    } else {
                        quoted.append(c);
                    }
            }
        }
        return quoted.append('"').toString();
    }
}
