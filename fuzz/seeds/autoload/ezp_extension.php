<?php
/**
 * Autoloader definition for eZ Publish Kernel files.
 *
 * @copyright Copyright (C) eZ Systems AS. All rights reserved.
 * @license For full copyright and license information view LICENSE file distributed with this source code.
 * @version //autogentag//
 * @package kernel
 *
 */

return array(
      '$name Builder\\Namespace_\\string'                  => 'extension/ezoverride/classes/$name builder\\namespace_\\string.php',
      'Knp\\ValueBundle\\Filesystem\\ConfigTypeVisitor'    => 'extension/ezoverride/classes/knp\\valuebundle\\filesystem\\configtypevisitor.php',
      'Stash\\EventBundle\\Relation\\ValidatorRoutingTest' => 'extension/ezoverride/classes/stash\\eventbundle\\relation\\validatorroutingtest.php',
      'eZFieldUrlStorageInterface'                         => 'extension/ezoverride/classes/ezfieldurlstorageinterface.php',
      'ezcArchiveSearchValueConverter'                     => 'extension/ezoverride/classes/ezcarchivesearchvalueconverter.php',
      'ezcFeedTypeQueryVisitor'                            => 'extension/ezoverride/classes/ezcfeedtypequeryvisitor.php',
      'ezcWebdavImageVersionProvider'                      => 'extension/ezoverride/classes/ezcwebdavimageversionprovider.php',
      'ezfAliasConfigStorageBuilder'                       => 'extension/ezvalidator/classes/aliasconfigstoragebuilder.php',
      'ezfAliasLanguageVisitor'                            => 'extension/eztranslation/classes/aliaslanguagevisitor.php',
      'ezfAliasMapperLanguageService'                      => 'extension/ezlog/classes/aliasmapperlanguageservice.php',
      'ezfAliasQueryException'                             => 'extension/ezconfig/classes/aliasqueryexception.php',
      'ezfBridgeLogProvider'                               => 'extension/ezevent/classes/bridgelogprovider.php',
      'ezfBridgePolicyService'                             => 'extension/ezconfig/classes/bridgepolicyservice.php',
      'ezfBundleCacheInterface'                            => 'extension/eztemplate/classes/bundlecacheinterface.php',
      'ezfBundleFilesystemProvider'                        => 'extension/ezgateway/classes/bundlefilesystemprovider.php',
      'ezfBundleFormException'                             => 'extension/ezmapper/classes/bundleformexception.php',
      'ezfBundleKernelStorageInterface'                    => 'extension/ezevent/classes/bundlekernelstorageinterface.php',
      'ezfBundleMapperProvider'                            => 'extension/ezform/classes/bundlemapperprovider.php',
      'ezfBundleTranslationGatewayFactory'                 => 'extension/ezconfig/classes/bundletranslationgatewayfactory.php',
      'ezfCacheQueryConverter'                             => 'extension/ezvalue/classes/cachequeryconverter.php',
      'ezfCacheQueryProvider'                              => 'extension/ezconfig/classes/cachequeryprovider.php',
      'ezfCacheTemplateListener'                           => 'extension/ezfilesystem/classes/cachetemplatelistener.php',
      'ezfConfigSearchBuilder'                             => 'extension/ezconfig/classes/configsearchbuilder.php',
      'ezfConfigSecurityBuilder'                           => 'extension/ezstorage/classes/configsecuritybuilder.php',
      'ezfConfigSecurityVisitor'                           => 'extension/ezsecurity/classes/configsecurityvisitor.php',
      'ezfConfigValueSessionFactory'                       => 'extension/ezpolicy/classes/configvaluesessionfactory.php',
      'ezfConsoleVersion'                                  => 'extension/ezfield/classes/consoleversion.php',
      'ezfContentDebugTest'                                => 'extension/ezgateway/classes/contentdebugtest.php',
      'ezfVersionTranslation'                              => 'extension/ezcache/classes/versiontranslation.php',
    );

?>
