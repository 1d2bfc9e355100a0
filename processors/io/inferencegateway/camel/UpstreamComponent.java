package io.inferencegateway.camel;

import java.nio.file.Path;
import java.util.Map;

import io.inferencegateway.config.TargetConfig;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.runtime.Gateway;
import io.inferencegateway.proxy.UpstreamClient;
import io.inferencegateway.proxy.UpstreamTls;
import org.apache.camel.support.DefaultComponent;

/**
 * {@code upstream:host:port} — sends the exchange's request to a model server and relays its response
 * as it streams. One non-blocking client (and its connection pools) serves every endpoint.
 *
 * <p>Plain HTTP unless the component is given a TLS context: {@code tls=true} (the JDK's trusted CAs) and, optionally,
 * {@code tlsCaFile}, {@code tlsCertFile} and {@code tlsKeyFile} (PEM; the last two for mTLS), as
 * {@code camel.component.upstream.*} properties; or {@link #setUpstreamTls} from code. It then applies to every
 * endpoint of the component.
 */
public class UpstreamComponent extends DefaultComponent {

    private UpstreamClient.Options options = UpstreamClient.Options.defaults();
    private volatile UpstreamClient client;
    private volatile UpstreamTls tls;
    private volatile Gateway gateway; // the registry's, found on a global tier's first call
    private boolean tlsOn;
    private String tlsCaFile;
    private String tlsCertFile;
    private String tlsKeyFile;

    @Override
    protected org.apache.camel.Endpoint createEndpoint(String uri, String remaining, Map<String, Object> parameters)
            throws Exception {
        UpstreamEndpoint endpoint = new UpstreamEndpoint(uri, this, Endpoint.parse(remaining));
        setProperties(endpoint, parameters);
        return endpoint;
    }

    /** Sets the I/O thread count of the upstream client (default: one per core). */
    public void setIoThreads(int ioThreads) {
        options = new UpstreamClient.Options(ioThreads, options.connectTimeout(), options.idleConnectionTimeout(),
                options.maxIdleConnectionsPerEndpoint());
    }

    /** Calls every endpoint over HTTPS, verifying servers against the CA file if set, else the JDK's trusted CAs. */
    public void setTls(boolean on) {
        this.tlsOn = on;
    }

    /** The CAs (PEM) to verify upstream servers against; implies {@code tls=true}. */
    public void setTlsCaFile(String file) {
        this.tlsCaFile = blankToNull(file);
    }

    /** The client certificate (PEM) presented to upstream servers that ask for one (mTLS); implies {@code tls=true}. */
    public void setTlsCertFile(String file) {
        this.tlsCertFile = blankToNull(file);
    }

    /** The client certificate's private key (PKCS#8 PEM). */
    public void setTlsKeyFile(String file) {
        this.tlsKeyFile = blankToNull(file);
    }

    /** The TLS every endpoint is called with (null: plain HTTP); takes the place of the file options. */
    public void setUpstreamTls(UpstreamTls tls) {
        this.tls = tls;
    }

    /**
     * How {@code target} is spoken to: its TLS context, or null for plain HTTP. A global tier's cluster or provider
     * ({@code global} not null) speaks TLS by its URL's scheme, with spec.global.tls; a pod by this component's options.
     */
    UpstreamTls tlsFor(Endpoint target, TargetConfig global) {
        if (global == null) {
            return tls;
        }
        Gateway g = gateway;
        if (g == null) {
            g = gateway = getCamelContext().getRegistry().lookupByNameAndType("gateway", Gateway.class);
        }
        return g == null ? null : g.targetTls(global);
    }

    @Override
    protected void doStart() throws Exception {
        super.doStart();
        if (tls == null && (tlsOn || tlsCaFile != null || tlsCertFile != null || tlsKeyFile != null)) {
            tls = UpstreamTls.client(path(tlsCaFile), path(tlsCertFile), path(tlsKeyFile));
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    private static Path path(String file) {
        return file == null ? null : Path.of(file);
    }

    UpstreamClient client() {
        UpstreamClient c = client;
        if (c == null) {
            synchronized (this) {
                if (client == null) {
                    client = new UpstreamClient(options);
                }
                c = client;
            }
        }
        return c;
    }

    @Override
    protected void doStop() throws Exception {
        UpstreamClient c = client;
        client = null;
        if (c != null) {
            c.close();
        }
        super.doStop();
    }
}
