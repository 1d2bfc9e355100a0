package io.inferencegateway.camel;

import java.util.Map;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.proxy.UpstreamClient;
import org.apache.camel.support.DefaultComponent;

/**
 * {@code upstream:host:port} — sends the exchange's request to a model server and relays its response
 * as it streams. One non-blocking client (and its connection pools) serves every endpoint.
 */
public class UpstreamComponent extends DefaultComponent {

    private UpstreamClient.Options options = UpstreamClient.Options.defaults();
    private volatile UpstreamClient client;

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
