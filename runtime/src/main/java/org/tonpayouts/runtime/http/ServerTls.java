package org.tonpayouts.runtime.http;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.Objects;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import org.tonpayouts.runtime.PayoutsConfig.Secret;
import org.tonpayouts.runtime.StartupException;

/**
 * The TLS side of an HTTPS surface: a PKCS12 key store (the server's key and certificate chain)
 * turned into the context the JDK's {@code HttpsServer} serves with, TLS 1.2 and 1.3 only.
 */
public final class ServerTls {
  static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

  private final SSLContext context;
  private final String subject;

  private ServerTls(SSLContext context, String subject) {
    this.context = context;
    this.subject = subject;
  }

  /**
   * Loads {@code file} with {@code password}.
   *
   * @param key the configuration key of the file, named in every error (the password never is)
   * @throws StartupException when the file is missing, the password wrong, or it holds no private key
   */
  public static ServerTls fromPkcs12(String key, Path file, Secret password) {
    Objects.requireNonNull(password, "password");
    char[] secret = password.value().toCharArray();
    KeyStore store;
    try (InputStream in = Files.newInputStream(file)) {
      store = KeyStore.getInstance("PKCS12");
      store.load(in, secret);
    } catch (NoSuchFileException e) {
      throw new StartupException(key + " " + file + " does not exist", e);
    } catch (IOException e) {
      // PKCS12 reports a wrong password as an IOException whose cause is an UnrecoverableKeyException
      throw new StartupException("cannot open " + key + " " + file + " with the password from " + password.source()
          + " (a wrong password, or not a PKCS12 file): " + e.getClass().getSimpleName(), e);
    } catch (GeneralSecurityException e) {
      throw new StartupException("cannot read " + key + " " + file + ": " + e.getClass().getSimpleName(), e);
    }
    try {
      String alias = Collections.list(store.aliases()).stream().filter(a -> isKey(store, a)).findFirst()
          .orElseThrow(() -> new StartupException(key + " " + file + " holds no private key: it needs the server's key"
              + " and certificate chain (openssl pkcs12 -export -inkey key.pem -in chain.pem -out " + file + ")", null));
      KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(store, secret);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keys.getKeyManagers(), null, null);
      X509Certificate certificate = (X509Certificate) store.getCertificate(alias);
      return new ServerTls(context, certificate == null ? alias : certificate.getSubjectX500Principal().getName());
    } catch (GeneralSecurityException e) {
      throw new StartupException("cannot use the key in " + key + " " + file + " (its key password must be the store's): "
          + e.getClass().getSimpleName(), e);
    }
  }

  private static boolean isKey(KeyStore store, String alias) {
    try {
      return store.isKeyEntry(alias);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  SSLContext context() {
    return context;
  }

  /** The parameters a connection gets: the context's defaults, TLS 1.2 and 1.3 only. */
  SSLParameters parameters() {
    SSLParameters parameters = context.getDefaultSSLParameters();
    parameters.setProtocols(PROTOCOLS);
    return parameters;
  }

  /** The certificate's subject, for the start-up log line. */
  public String subject() {
    return subject;
  }
}
