import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;

/**
 * The Java Admin client on the benchmark workloads, timed inside one warm JVM.
 *
 * <p>Usage: {@code java ConfigBench BOOTSTRAP TOPICS_FILE REPS}; TOPICS_FILE has one topic per
 * line. Prints one JSON object shaped like benchmarks/runner.py's output.
 */
public final class ConfigBench {
    private static final int W2_CALLS = 1000;
    private static final int W4_CALLS = 50;
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
        for (int rep = 0; rep < reps; rep++) {
            long start = System.nanoTime();
            long startCpu = processCpuNanos();
            work.run(rep);
            seconds[rep] = (System.nanoTime() - start) / 1e9;
            cpuSeconds[rep] = (processCpuNanos() - startCpu) / 1e9;
        }
        return "{\"seconds\": " + Arrays.toString(seconds) + ", \"cpu_seconds\": "
                + Arrays.toString(cpuSeconds) + "}";
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
