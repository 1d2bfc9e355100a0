package io.inferencegateway.camel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;

import org.apache.camel.Exchange;
import org.junit.jupiter.api.Test;

import io.inferencegateway.config.ConfigLoader;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.domain.RequestListener;
import io.inferencegateway.domain.RequestRecord;
import io.inferencegateway.request.GatewayRequest;
import io.inferencegateway.runtime.Gateway;
import io.netty.buffer.ByteBuf;

/** The choose-model-version step on a bare exchange: renames a rewrite's requests, passes the others untouched. */
class ChooseModelVersionTest {

    final Gateway gateway;
    final ParseInferenceRequest parse;
    final ChooseModelVersion choose;

    ChooseModelVersionTest() throws Exception {
        gateway = new Gateway(ConfigLoader.parse("""
                kind: InferenceGatewayConfig
                spec:
                  schedulers:
                    - {name: one, modelName: v1, endpoints: ["10.0.0.1:8000"], loraAdapters: [v1-sql]}
                    - {name: two, modelName: v2, endpoints: ["10.0.0.2:8000"]}
                  modelRewrites:
                    - name: sql
                      responseModel: requested
                      rules: [{targets: [{model: v1-sql}]}]
                """), NanoClock.SYSTEM);
        parse = new ParseInferenceRequest(new RequestListener() {
            @Override
            public void started(RequestRecord record) {
            }

            @Override
            public void ended(RequestRecord record) {
            }
        }, NanoClock.SYSTEM, () -> 1000);
        choose = GatewayBeans.chooseModelVersion(gateway);
    }

    private Exchange parsed(String contentType, String body) throws Exception {
        Exchange e = ProcessorsTest.exchange(contentType, body);
        parse.process(e);
        return e;
    }

    @Test
    void aRewritesRequestNamesItsTargetInTheBodyAndTheClientsBufferIsLetGo() throws Exception {
        Exchange e = parsed("application/json", "{\"model\":\"sql\",\"prompt\":\"select\",\"max_tokens\":3}");
        GatewayRequest request = GatewayExchange.request(e);
        ByteBuf clients = request.body();

        choose.process(e);

        assertThat(clients.refCnt()).as("held only by the renamed body's slices").isEqualTo(2);
        assertThat(request.body().toString(StandardCharsets.UTF_8))
                .isEqualTo("{\"model\":\"v1-sql\",\"prompt\":\"select\",\"max_tokens\":3}");
        assertThat(request.model()).isEqualTo("v1-sql");
        assertThat(request.responseModel()).isEqualTo("sql");
        assertThat(request.record().rewrite()).isEqualTo("sql");
        assertThat(request.record().versionModel()).isEqualTo("v1-sql");

        request.exchangeEnded();
        assertThat(clients.refCnt()).as("released with the renamed body").isZero();
    }

    @Test
    void anyOtherModelPassesUntouched() throws Exception {
        Exchange e = parsed("application/json", "{\"model\":\"v2\",\"prompt\":\"hi\"}");
        GatewayRequest request = GatewayExchange.request(e);
        ByteBuf clients = request.body();

        choose.process(e);

        assertThat(request.body()).isSameAs(clients);
        assertThat(request.model()).isEqualTo("v2");
        assertThat(request.responseModel()).isNull();
        assertThat(request.record().rewrite()).isNull();
    }

    @Test
    void aFormUploadNamingARewriteIsABadRequest() throws Exception {
        String boundary = "b0";
        Exchange e = parsed("multipart/form-data; boundary=" + boundary, "--b0\r\nContent-Disposition: form-data; "
                + "name=\"model\"\r\n\r\nsql\r\n--b0--\r\n");

        assertThatThrownBy(() -> choose.process(e)).isInstanceOfSatisfying(GatewayError.class,
                err -> assertThat(err.getMessage()).contains("sql").contains("v1-sql"));
    }
}
