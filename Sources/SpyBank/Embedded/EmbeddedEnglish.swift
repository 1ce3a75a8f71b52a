// The English half of the embedded bank, in the same "civilian|spy" line format as the Chinese half.
extension EmbeddedBank {
    static let englishText = """
        ## Food
        bread|cake
        pizza|pasta
        hamburger|sandwich
        hot dog|sausage
        fried rice|fried noodles
        sushi|sashimi
        dumpling|bun
        pancake|waffle
        cookie|cracker
        chocolate|candy
        ice cream|frozen yogurt
        pudding|jelly
        french fries|potato chips
        popcorn|cotton candy
        butter|cheese
        ketchup|mustard
        salt|sugar
        soy sauce|vinegar
        steak|pork chop
        fried chicken|roast chicken
        shrimp|crab
        salmon|tuna
        bacon|ham
        omelette|scrambled eggs
        donut|bagel
        croissant|muffin
        soup|stew
        salad|coleslaw
        taco|burrito
        noodles|spaghetti
        cereal|oatmeal
        honey|maple syrup
        jam|peanut butter
        toast|biscuit
        lobster|oyster
        curry|chili
        porridge|grits
        pie|tart

        ## Drinks
        coffee|tea
        milk|soy milk
        cola|lemonade
        beer|wine
        whisky|brandy
        juice|smoothie
        latte|cappuccino
        espresso|americano
        green tea|black tea
        bubble tea|milk tea
        hot chocolate|warm milk
        sparkling water|mineral water
        champagne|prosecco
        vodka|gin
        rum|tequila
        energy drink|sports drink
        milkshake|frappe
        cocktail|mocktail
        cider|ginger ale
        yogurt drink|kefir

        ## Fruit
        apple|pear
        banana|plantain
        orange|tangerine
        lemon|lime
        strawberry|raspberry
        blueberry|grape
        watermelon|cantaloupe
        peach|plum
        cherry|cranberry
        mango|papaya
        pineapple|coconut
        kiwi|passion fruit
        grapefruit|pomelo
        lychee|longan
        apricot|nectarine
        avocado|olive
        fig|prune
        durian|jackfruit
        blackberry|mulberry
        tomato|persimmon

        ## Vegetables
        carrot|radish
        potato|sweet potato
        onion|garlic
        cabbage|lettuce
        spinach|kale
        broccoli|cauliflower
        cucumber|zucchini
        pumpkin|squash
        mushroom|truffle
        corn|peas
        green pepper|chili pepper
        celery|asparagus
        eggplant|bitter melon
        tofu|tempeh
        ginger|turmeric
        bean sprouts|green beans
        beetroot|turnip
        leek|scallion
        seaweed|algae
        basil|mint

        ## Animals
        cat|dog
        tiger|lion
        wolf|fox
        rabbit|hamster
        mouse|rat
        horse|donkey
        cow|buffalo
        sheep|goat
        pig|boar
        chicken|duck
        goose|swan
        eagle|hawk
        owl|bat
        parrot|peacock
        penguin|puffin
        dolphin|whale
        shark|crocodile
        frog|toad
        snake|lizard
        turtle|tortoise
        butterfly|moth
        bee|wasp
        ant|termite
        mosquito|fly
        spider|scorpion
        octopus|squid
        panda|koala
        monkey|gorilla
        giraffe|zebra
        elephant|hippo
        camel|llama
        kangaroo|wallaby
        bear|raccoon
        deer|moose
        hedgehog|porcupine
        dragon|dinosaur
        pigeon|sparrow
        goldfish|carp
        snail|slug
        seal|walrus

        ## Household
        pillow|cushion
        blanket|quilt
        towel|bathrobe
        umbrella|raincoat
        pencil|pen
        eraser|correction tape
        scissors|knife
        tape|glue
        bowl|plate
        chopsticks|fork
        spoon|ladle
        mirror|window
        watch|clock
        alarm clock|timer
        glasses|sunglasses
        backpack|suitcase
        toilet paper|tissues
        soap|shower gel
        shampoo|conditioner
        toothbrush|comb
        hair dryer|fan
        fridge|freezer
        television|computer monitor
        sofa|bed
        candle|flashlight
        lighter|matches
        key|key card
        trash can|recycling bin
        mop|broom
        vacuum cleaner|robot vacuum
        washing machine|dryer
        microwave|oven
        kettle|coffee maker
        charger|power bank
        headphones|speaker
        curtain|blinds
        wallet|purse
        doorbell|door knocker

        ## Jobs
        doctor|nurse
        teacher|professor
        police officer|security guard
        lawyer|judge
        chef|baker
        actor|singer
        taxi driver|bus driver
        firefighter|lifeguard
        reporter|news anchor
        writer|screenwriter
        painter|photographer
        engineer|designer
        mail carrier|courier
        barber|hairdresser
        farmer|fisherman
        waiter|bartender
        flight attendant|pilot
        president|mayor
        astronaut|scientist
        magician|clown
        soldier|bodyguard
        detective|spy
        boss|manager
        dentist|vet
        architect|carpenter
        accountant|bank teller
        tour guide|travel agent
        model|influencer
        programmer|hacker
        nanny|butler
        plumber|electrician
        librarian|archivist

        ## Places
        school|cram school
        hospital|clinic
        library|bookstore
        supermarket|convenience store
        cinema|theater
        park|playground
        zoo|aquarium
        restaurant|cafe
        airport|train station
        night market|farmers market
        beach|swimming pool
        hotel|hostel
        bank|post office
        gym|stadium
        church|temple
        museum|art gallery
        karaoke bar|pub
        shopping mall|department store
        bathroom|kitchen
        bedroom|living room
        office|meeting room
        prison|police station
        desert|prairie
        hot spring|sauna
        London|Paris
        New York|Los Angeles
        Japan|Korea
        Italy|Spain
        castle|palace
        island|peninsula
        North Pole|South Pole
        farm|ranch
        amusement park|water park
        lighthouse|windmill

        ## Transport
        bus|subway
        train|high-speed rail
        airplane|helicopter
        bicycle|motorcycle
        car|truck
        ship|yacht
        sailboat|canoe
        hot air balloon|parachute
        elevator|escalator
        skateboard|roller skates
        ambulance|fire truck
        police car|taxi
        rocket|space shuttle
        cable car|Ferris wheel
        traffic light|crosswalk
        gas station|parking lot
        highway|tunnel
        seat belt|helmet
        plane ticket|train ticket
        tricycle|stroller
        submarine|ferry
        scooter|segway

        ## Sports
        basketball|volleyball
        soccer|rugby
        baseball|softball
        tennis|badminton
        table tennis|billiards
        swimming|diving
        running|walking
        yoga|pilates
        boxing|taekwondo
        judo|karate
        sumo|wrestling
        skiing|snowboarding
        ice skating|roller skating
        surfing|windsurfing
        golf|bowling
        hiking|rock climbing
        archery|shooting
        marathon|triathlon
        fencing|kendo
        jump rope|hula hoop
        Olympics|World Cup
        cricket|croquet
        hockey|lacrosse
        cycling|spinning class

        ## Music
        piano|guitar
        violin|cello
        flute|recorder
        drums|tambourine
        harmonica|accordion
        trumpet|saxophone
        ukulele|banjo
        harp|lyre
        concert|musical
        choir|band
        rap|rock
        jazz|blues
        opera|ballet
        microphone|loudspeaker
        DJ|conductor
        album|playlist

        ## Games and Hobbies
        poker|mahjong
        chess|checkers
        Go|Othello
        hide and seek|tag
        singing|dancing
        movie|TV series
        cartoon|comic book
        novel|biography
        magic trick|juggling
        talk show|reality show
        video game|mobile game
        jigsaw puzzle|crossword
        Lego|model kit
        fishing|camping
        knitting|sewing
        painting|drawing
        photography|filming
        gardening|farming
        yo-yo|spinning top
        Monopoly|Scrabble
        kite|balloon
        Werewolf|Who Is the Spy

        ## Nature
        sun|moon
        star|comet
        rain|snow
        typhoon|tornado
        earthquake|tsunami
        rainbow|aurora
        cloud|fog
        river|lake
        waterfall|fountain
        volcano|iceberg
        lightning|thunder
        spring|autumn
        summer|winter
        sunrise|sunset
        rose|carnation
        sunflower|daisy
        cherry blossom|plum blossom
        lotus|water lily
        cactus|aloe
        pine tree|oak tree
        bamboo|reed
        stone|brick
        diamond|crystal
        gold|platinum
        pearl|seashell
        mountain|hill
        forest|jungle
        ocean|bay

        ## Body and Health
        eye|eyebrow
        mouth|nose
        finger|toe
        hair|beard
        tooth|tongue
        knee|elbow
        cold|flu
        headache|toothache
        cough|sneeze
        hiccup|yawn
        nearsighted|farsighted
        vitamins|supplements
        band-aid|bandage
        contact lenses|eye drops
        dimple|freckle
        massage|acupuncture
        fever|chills
        wrist|ankle

        ## Clothing
        shirt|T-shirt
        jeans|sweatpants
        skirt|dress
        jacket|coat
        sweater|hoodie
        hat|cap
        gloves|mittens
        socks|stockings
        slippers|sandals
        high heels|leather shoes
        sneakers|canvas shoes
        tie|bow tie
        necklace|bracelet
        ring|earring
        pajamas|bathrobe
        swimsuit|wetsuit
        rain boots|snow boots
        suit|tuxedo
        lipstick|blush
        perfume|deodorant
        belt|suspenders
        scarf|shawl
        vest|cardigan

        ## Technology
        smartphone|tablet
        laptop|desktop computer
        keyboard|touchpad
        printer|photocopier
        camera|camcorder
        email|text message
        Wi-Fi|Bluetooth
        USB stick|hard drive
        robot|artificial intelligence
        remote control|game controller
        e-book|paperback
        smartwatch|fitness tracker
        password|fingerprint
        satellite|space station
        laser|infrared
        battery|power outlet
        projector|screen
        selfie stick|tripod
        video call|phone call
        Facebook|Instagram
        YouTube|Netflix
        app|website

        ## School
        exam|homework
        midterm|final exam
        summer vacation|winter break
        principal|dean
        class president|class monitor
        blackboard|notice board
        textbook|workbook
        school bag|pencil case
        graduation|orientation
        sports day|school fair
        math|physics
        history|geography
        chemistry|biology
        music class|art class
        classmate|roommate
        field trip|graduation trip
        uniform|tracksuit
        certificate|trophy
        chalk|crayon
        university|high school
        club|student council
        scholarship|student loan

        ## People and Characters
        grandpa|grandma
        brother|cousin
        sister|aunt
        uncle|godfather
        boyfriend|husband
        girlfriend|wife
        neighbor|landlord
        idol|fan
        prince|knight
        queen|princess
        Snow White|Cinderella
        Superman|Batman
        Spider-Man|Iron Man
        Mickey Mouse|Donald Duck
        Santa Claus|snowman
        angel|fairy
        witch|wizard
        vampire|zombie
        pirate|ninja
        ghost|alien
        mermaid|unicorn
        Harry Potter|Gandalf

        ## Holidays
        Christmas|Thanksgiving
        Halloween|Easter
        New Year|New Year's Eve
        birthday|anniversary
        wedding|engagement
        gift|red envelope
        fireworks|firecrackers
        Valentine's Day|White Day
        Mother's Day|Father's Day
        Lunar New Year|Mid-Autumn Festival
        lantern|candle light
        barbecue|picnic
        carnival|parade
        lottery|scratch card
        baby shower|bridal shower

        ## Feelings and Life
        happy|excited
        sad|disappointed
        angry|jealous
        afraid|nervous
        shy|embarrassed
        dream|wish
        secret|lie
        luck|fate
        courage|confidence
        friendship|love
        first love|crush
        memory|diary
        date|blind date
        insomnia|all-nighter
        diet|fasting
        late|early
        overtime|night shift
        moving house|renovation
        saving|investing
        breakfast|brunch

        ## Party !party
        kiss|hug
        bikini|lingerie
        condom|birth control pill
        hangover|blackout
        nightclub|strip club
        striptease|pole dance
        cheating|affair
        first night|first kiss
        skinny dipping|sleeping naked
        tipsy|drunk
        ex|friend with benefits
        one-night stand|hookup
        """
}
