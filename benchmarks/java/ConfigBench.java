import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;

/**
 * The Java Admin client on the benchmark workloads, timed inside one warm JVM.
 *
 * <p>Usage: {@code java ConfigBench BOOTSTRAP TOPICS_FILE REPS SETTLE [WORKLOADS]}; TOPICS_FILE
 * has one topic per line. Prints one JSON object shaped like benchmarks/runner.py's output; with
 * BENCH_BROKER_PIDS set (as the runner reads it), each timed call also records the brokers' CPU
 * and bytes written. {@code java ConfigBench BOOTSTRAP TOPICS_FILE answers OUT} writes W1's
 * answer instead, one entry a line (benchmarks/answers.py reads it).
 */
public final class ConfigBench {
    private static final int W2_CALLS = 1000;
    private static final int W4_CALLS = 50;
    /** Topics a describe call when writing the answers (writeAnswers). */
    private static final int ANSWER_BATCH = 1000;
    private static final String[] VALUES = {"3600000", "7200000"};

    private final Admin admin;
    private final List<String> topics;
    private final DescribeConfigsOptions withEverything =
            new DescribeConfigsOptions().includeSynonyms(true).includeDocumentation(true);

    private ConfigBench(Admin admin, List<String> topics) {
        this.admin = admin;
        this.topics = topics;
    }

    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "120000");
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "120000");
        List<String> topics = Files.readAllLines(Path.of(args[1]));
        if (args[2].equals("answers")) {
            try (Admin admin = Admin.create(props)) {
                new ConfigBench(admin, topics).writeAnswers(Path.of(args[3]));
            }
            return;
        }
        int reps = Integer.parseInt(args[2]);
        long settleMillis = Math.round(Double.parseDouble(args[3]) * 1000);
        // As benchmarks/runner.py: an optional fifth argument names the workloads (w1,w3).
        List<String> only = args.length > 4 ? List.of(args[4].split(",")) : null;
        try (Admin admin = Admin.create(props)) {
            System.out.println(new ConfigBench(admin, topics).run(reps, settleMillis, only));
        }
    }

    private interface Workload {
        String run() throws Exception;
    }

    private String run(int reps, long settleMillis, List<String> only) throws Exception {
        Map<String, Workload> plan = new LinkedHashMap<>();
        plan.put("w1", () -> seconds(reps, 1, rep -> describe(topics, withEverything)));
        plan.put("w2", () -> w2(Math.max(1, reps / 2)));
        // As benchmarks/runner.py: W3 gets three times the repetitions (W3_REPS_PER_REP).
        plan.put("w3", () -> seconds(3 * reps, 2, rep -> alterEach(VALUES[rep % 2])));
        plan.put("w4", () -> seconds(reps, 1, rep -> concurrent()));
        Map<String, String> workloads = new LinkedHashMap<>();
        for (Map.Entry<String, Workload> entry : plan.entrySet()) {
            if (only != null && !only.contains(entry.getKey())) {
                continue;
            }
            Thread.sleep(settleMillis);  // as the Python runner does: see runner.measure
            workloads.put(entry.getKey(), entry.getValue().run());
        }
        StringBuilder json = new StringBuilder("{\"peer\": \"java\", \"workloads\": {");
        String separator = "";
        for (Map.Entry<String, String> entry : workloads.entrySet()) {
            json.append(separator).append('"').append(entry.getKey()).append("\": ")
                    .append(entry.getValue());
            separator = ", ";
        }
        return json.append("}}").toString();
    }

    private interface Rep {
        Object run(int rep) throws Exception;
    }

    private static String seconds(int reps, int warmups, Rep work) throws Exception {
        for (int rep = 0; rep < warmups; rep++) {
            work.run(rep);
        }
        double[] seconds = new double[reps];
        double[] cpuSeconds = new double[reps];
        double[] brokerCpu = new double[reps];
        double[] brokerWritten = new double[reps];
        for (int rep = 0; rep < reps; rep++) {
            double[] before = brokerCounters();
            long start = System.nanoTime();
            long startCpu = processCpuNanos();
            work.run(rep);
            seconds[rep] = (System.nanoTime() - start) / 1e9;
            cpuSeconds[rep] = (processCpuNanos() - startCpu) / 1e9;
            double[] after = brokerCounters();
            brokerCpu[rep] = after[0] - before[0];
            brokerWritten[rep] = after[1] - before[1];
        }
        String brokers = BROKER_PIDS.isEmpty() ? "" : ", \"broker_cpu_seconds\": "
                + Arrays.toString(brokerCpu) + ", \"broker_bytes_written\": "
                + Arrays.toString(brokerWritten);
        return "{\"seconds\": " + Arrays.toString(seconds) + ", \"cpu_seconds\": "
                + Arrays.toString(cpuSeconds) + brokers + "}";
    }

    /** The measured cluster's broker processes (benchmarks.BROKER_PIDS), none if unset. */
    private static final List<String> BROKER_PIDS =
            List.of(System.getenv().getOrDefault("BENCH_BROKER_PIDS", "").split(",")).stream()
                    .filter(pid -> !pid.isEmpty()).toList();

    /**
     * CPU seconds (utime + stime, in the kernel's 100 Hz ticks) and bytes written (wchar) so
     * far by the brokers, as benchmarks.broker_counters reads them.
     */
    private static double[] brokerCounters() throws Exception {
        double cpu = 0;
        double written = 0;
        for (String pid : BROKER_PIDS) {
            String stat = Files.readString(Path.of("/proc", pid, "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            cpu += (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / 100.0;
            for (String line : Files.readAllLines(Path.of("/proc", pid, "io"))) {
                if (line.startsWith("wchar:")) {
                    written += Long.parseLong(line.substring(6).trim());
                }
            }
        }
        return new double[] {cpu, written};
    }

    /**
     * W1's answer, one entry a line: topic, name, value, source, sensitive, read-only, type, the
     * SHA-256 of the documentation, then each synonym's name, value and source, tab-separated
     * (benchmarks/answers.py writes ours the same way; a missing value is \\N).
     */
    private void writeAnswers(Path out) throws Exception {
        // 1,000 topics a call: the broker (512 MB of heap in the test harness) fails one request
        // for 20,000 topics with documentation (UnknownServerException), and an entry's answer
        // does not depend on the topics asked with it.
        Map<ConfigResource, Config> configs = new LinkedHashMap<>();
        for (int first = 0; first < topics.size(); first += ANSWER_BATCH) {
            int last = Math.min(topics.size(), first + ANSWER_BATCH);
            List<String> batch = topics.subList(first, last);
            configs.putAll(admin.describeConfigs(resources(batch), withEverything).all().get());
        }
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        try (BufferedWriter writer = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            for (Map.Entry<ConfigResource, Config> config : configs.entrySet()) {
                for (ConfigEntry entry : config.getValue().entries()) {
                    List<String> fields = new ArrayList<>(List.of(
                            config.getKey().name(), entry.name(), field(entry.value()),
                            entry.source().name(), String.valueOf(entry.isSensitive()),
                            String.valueOf(entry.isReadOnly()), entry.type().name(),
                            entry.documentation() == null ? "\\N" : HexFormat.of().formatHex(
                                    sha.digest(entry.documentation().getBytes(
                                            StandardCharsets.UTF_8)))));
                    for (ConfigEntry.ConfigSynonym synonym : entry.synonyms()) {
                        fields.add(field(synonym.name()));
                        fields.add(field(synonym.value()));
                        fields.add(synonym.source().name());
                    }
                    writer.write(String.join("\t", fields));
                    writer.write('\n');
                }
            }
        }
    }

    /** A text as one field of a line: tabs, newlines and backslashes escaped; null as \\N. */
    private static String field(String text) {
        if (text == null) {
            return "\\N";
        }
        return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n");
    }

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /**
     * CPU time of the JVM's Java threads (the caller's, the admin client's network thread, the
     * JIT compiler's), in nanoseconds. The process CPU time the OS keeps comes in 10 ms ticks,
     * too coarse for one alter; the GC's own threads are not Java threads and are left out.
     */
    private static long processCpuNanos() {
        long total = 0;
        for (long id : THREADS.getAllThreadIds()) {
            total += Math.max(0, THREADS.getThreadCpuTime(id));
        }
        return total;
    }

    private String w2(int reps) throws Exception {
        latencies();  // warm-up
        double[] totals = new double[reps];
        double[] cpuSeconds = new double[reps];
        double[] p50 = new double[reps];
        double[] p99 = new double[reps];
        for (int rep = 0; rep < reps; rep++) {
            long startCpu = processCpuNanos();
            double[] run = latencies();
            cpuSeconds[rep] = (processCpuNanos() - startCpu) / 1e9;
            totals[rep] = Arrays.stream(run).sum();
            p50[rep] = run[run.length / 2] * 1000;
            p99[rep] = run[(int) (run.length * 0.99)] * 1000;
        }
        return "{\"seconds\": " + Arrays.toString(totals) + ", \"cpu_seconds\": "
                + Arrays.toString(cpuSeconds) + ", \"p50_ms\": "
                + Arrays.toString(p50) + ", \"p99_ms\": " + Arrays.toString(p99) + "}";
    }

    private double[] latencies() throws Exception {
        List<String> one = List.of(topics.get(1));
        double[] run = new double[W2_CALLS];
        for (int call = 0; call < W2_CALLS; call++) {
            long start = System.nanoTime();
            describe(one, withEverything);
            run[call] = (System.nanoTime() - start) / 1e9;
        }
        Arrays.sort(run);
        return run;
    }

    private Object describe(List<String> names, DescribeConfigsOptions options) throws Exception {
        return admin.describeConfigs(resources(names), options).all().get();
    }

    private Object alterEach(String value) throws Exception {
        Map<ConfigResource, Collection<AlterConfigOp>> ops = new LinkedHashMap<>();
        AlterConfigOp set =
                new AlterConfigOp(new ConfigEntry("retention.ms", value), AlterConfigOp.OpType.SET);
        for (ConfigResource resource : resources(topics)) {
            ops.put(resource, List.of(set));
        }
        return admin.incrementalAlterConfigs(ops).all().get();
    }

    private Object concurrent() throws Exception {
        List<KafkaFuture<?>> futures = new ArrayList<>();
        for (String topic : topics.subList(0, W4_CALLS)) {
            futures.add(admin.describeConfigs(resources(List.of(topic)), withEverything).all());
        }
        return KafkaFuture.allOf(futures.toArray(new KafkaFuture<?>[0])).get();
    }

    private static List<ConfigResource> resources(List<String> names) {
        List<ConfigResource> resources = new ArrayList<>(names.size());
        for (String name : names) {
            resources.add(new ConfigResource(ConfigResource.Type.TOPIC, name));
        }
        return resources;
    }
}
